import Foundation
import Testing
import TestFixtures
import Captures
@testable import HCI

/// Every HCI packet of a capture, as H4 bytes, read with the product's `CaptureReader`
/// (records it reports as malformed are left out: they were never whole packets).
func h4Records(of url: URL) throws -> [[UInt8]] {
    var reader = try CaptureReader(path: url.path)
    var records: [[UInt8]] = []
    while true {
        do throws(CaptureError) {
            guard let packet = try reader.next() else { break }
            records.append(packet.h4Bytes)
        } catch {
            guard error.isRecoverable else { throw error }
        }
    }
    return records
}

@Suite("H4 framer")
struct H4FramerTests {
    static let captures = [
        "govee-h5100.btsnoop", "govee-h5075-h5074.btsnoop", "govee-misc.btsnoop", "horizon74.btsnoop",
        "extcap-no-beacons.btsnoop", "govee-h5105.pcapng", "govee-20230127.pcapng", "govee-5c0f-3.pcapng",
        "govee-h5174-2.pcapng", "govee-inout.pcap", "govee-no-beacons.pcapng", "pact-nrf-sniffer-6ft.pcapng",
        "ll-phdr-no-rssi.pcapng",
    ]
    @Test("real captures re-serialised as H4 come back packet for packet, whatever the chunking", arguments: captures)
    func realCapturesInRandomChunks(name: String) throws {
        let records = try h4Records(of: SharedData.capture(name))
        try #require(records.count > 100, "\(name) should hold real packets")
        let stream = records.flatMap { $0 }
        for seed: UInt64 in [1, 2, 3] {
            var random = SeededGenerator(seed: seed)
            var framer = H4Framer()
            var packets: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let size = Int.random(in: 1...300, using: &random)
                let end = min(index + size, stream.count)
                framer.append(stream[index..<end])
                index = end
                while let output = framer.next() {
                    guard case .packet(let type, let payload) = output else {
                        Issue.record("unexpected \(output) in \(name)")
                        continue
                    }
                    packets.append([type.rawValue] + payload)
                }
            }
            #expect(packets.count == records.count)
            #expect(packets == records, "seed \(seed) of \(name)")
            #expect(framer.bufferedByteCount == 0)
            #expect(framer.skippedByteCount == 0)
        }
    }

    @Test("every packet type's header gives its length")
    func headerLengths() {
        let stream: [UInt8] = [
            0x01, 0x03, 0x0C, 0x00,                          // Reset command, no parameters
            0x02, 0x40, 0x20, 0x03, 0x00, 0xAA, 0xBB, 0xCC, // ACL, 3 data bytes
            0x03, 0x01, 0x00, 0x02, 0x11, 0x22,             // SCO, 2 bytes
            0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00,       // Command Complete for Reset
            0x05, 0x01, 0x00, 0x02, 0xC0, 0x33, 0x44,       // ISO, length 2 with reserved top bits set
        ]
        var framer = H4Framer()
        framer.append(stream)
        let outputs = framer.drain()
        #expect(outputs == [
            .packet(type: .command, payload: [0x03, 0x0C, 0x00]),
            .packet(type: .aclData, payload: [0x40, 0x20, 0x03, 0x00, 0xAA, 0xBB, 0xCC]),
            .packet(type: .scoData, payload: [0x01, 0x00, 0x02, 0x11, 0x22]),
            .packet(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
            .packet(type: .isoData, payload: [0x01, 0x00, 0x02, 0xC0, 0x33, 0x44]),
        ])
    }

    @Test("unknown indicator bytes are skipped, counted and reported once per run, then sync returns")
    func resynchronises() {
        var framer = H4Framer()
        framer.append([0x04, 0x0E, 0x01, 0x01])           // a whole event
        framer.append([0xFF, 0x00, 0x99])                  // line noise
        framer.append([0x04, 0x0F, 0x04, 0x00, 0x01, 0x05, 0x20]) // Command Status
        let outputs = framer.drain()
        #expect(outputs == [
            .packet(type: .event, payload: [0x0E, 0x01, 0x01]),
            .skipped(indicator: 0xFF, offset: 4, count: 3),
            .packet(type: .event, payload: [0x0F, 0x04, 0x00, 0x01, 0x05, 0x20]),
        ])
        #expect(framer.skippedByteCount == 3)
        #expect(framer.packetCount == 2)
    }

    @Test("a packet cut short waits for the rest instead of guessing")
    func partialPacketWaits() {
        var framer = H4Framer()
        framer.append([0x04, 0x3E])
        #expect(framer.next() == nil)
        framer.append([0x03, 0x02])
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 4)
        framer.append([0x01, 0x00])
        #expect(framer.next() == .packet(type: .event, payload: [0x3E, 0x03, 0x02, 0x01, 0x00]))
    }
}
