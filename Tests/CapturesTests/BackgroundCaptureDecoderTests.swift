import BeaconFormats
import Captures
import Foundation
import HCI
import TestFixtures
import Testing

/// The background decoder hands over exactly what the sequential loop (`CaptureReader` then
/// `BeaconSightingDecoder`) gives, in the same order, whatever the batch size: packets' times,
/// sightings per packet, malformed records and packets, and how the file ended.
@Suite struct BackgroundCaptureDecoderTests {
    struct Decoded: Equatable {
        var packetTimes: [Double] = []
        var sightingsPerPacket: [[BeaconSighting]] = []
        var malformedRecords: [CaptureError] = []
        var malformedPackets: [MalformedPacket] = []
        var recordCount = 0
        var truncation: CaptureTruncation?
        var stoppedBy: CaptureError?
    }

    static func sequential(_ path: String) throws -> Decoded {
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var decoded = Decoded()
        while true {
            let packet: HCIPacket
            do {
                guard let next = try reader.next() else { break }
                packet = next
            } catch {
                if error.isRecoverable {
                    decoded.malformedRecords.append(error)
                    continue
                }
                decoded.stoppedBy = error
                break
            }
            decoded.packetTimes.append(packet.timestamp)
            var sightings: [BeaconSighting] = []
            do {
                try decoder.decode(packet) { sightings.append($0) }
            } catch {
                decoded.malformedPackets.append(MalformedPacket(fileOffset: reader.recordOffset, reason: "HCI \(error)"))
            }
            decoded.sightingsPerPacket.append(sightings)
        }
        decoded.recordCount = reader.recordCount
        decoded.truncation = reader.truncation
        return decoded
    }

    static func background(_ path: String, batchSize: Int) throws -> Decoded {
        let decoder = BackgroundCaptureDecoder(reader: try CaptureReader(path: path), batchSize: batchSize, depth: 2)
        var decoded = Decoded()
        var ends = 0
        while let batch = decoder.next() {
            decoded.packetTimes += batch.packetTimes
            for packet in 0..<batch.packetCount {
                decoded.sightingsPerPacket.append(Array(batch.sightings[batch.sightingStart[packet]..<batch.sightingStart[packet + 1]]))
            }
            decoded.malformedRecords += batch.malformedRecords
            decoded.malformedPackets += batch.malformedPackets
            if let end = batch.end {
                ends += 1
                decoded.recordCount = end.recordCount
                decoded.truncation = end.truncation
                decoded.stoppedBy = end.stoppedBy
            }
        }
        #expect(ends == 1, "exactly the last batch says how reading ended")
        #expect(decoder.next() == nil, "nothing after the end")
        return decoded
    }

    @Test(arguments: SharedCaptureTests.table.map(\.file))
    func everyRealCaptureComesOverAsTheSequentialLoopReadsIt(_ file: String) throws {
        let path = SharedData.capture(file).path
        let expected = try Self.sequential(path)
        #expect(!expected.packetTimes.isEmpty)
        for batchSize in [1, 3, 4096] {
            #expect(try Self.background(path, batchSize: batchSize) == expected, "batch size \(batchSize)")
        }
    }

    @Test func aCutAndACorruptCopyEndAsTheSequentialLoopSays() throws {
        let original = try Array(Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cut = try directory.write(Array(original[..<(original.count * 2 / 3)]), name: "cut.btsnoop")
        var corrupt = original
        corrupt[16 + 4..<16 + 8] = [0xFF, 0xFF, 0xFF, 0xFF]  // the second record's included length
        let corruptPath = try directory.write(corrupt, name: "corrupt.btsnoop")
        for path in [cut, corruptPath] {
            let expected = try Self.sequential(path)
            #expect(expected.truncation != nil || expected.stoppedBy != nil)
            #expect(try Self.background(path, batchSize: 7) == expected)
        }
    }

    /// After `cancel` the consumer gets nothing more, and dropping a decoder whose reading thread
    /// waits on a full channel wakes that thread and frees the channel without a trap (libdispatch
    /// traps when a semaphore is freed below the value it was created with: this test caught that).
    @Test func cancellingEndsTheBatchesAndDroppingADecoderEarlyIsSafe() throws {
        let path = SharedData.capture("govee-h5100.btsnoop").path
        let decoder = BackgroundCaptureDecoder(reader: try CaptureReader(path: path), batchSize: 1, depth: 1)
        #expect(decoder.next() != nil)
        decoder.cancel()
        #expect(decoder.next() == nil)
        for _ in 0..<20 {
            let dropped = BackgroundCaptureDecoder(reader: try CaptureReader(path: path), batchSize: 1, depth: 1)
            #expect(dropped.next()?.packetCount == 1)
        }
    }
}
