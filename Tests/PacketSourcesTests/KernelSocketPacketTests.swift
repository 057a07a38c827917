import Glibc
import HCI
import Synchronization
import TestFixtures
import Testing
@testable import PacketSources

/// A kernel HCI socket whose reads return queued datagrams (one packet per read, as the kernel
/// gives them), and which records what is written to it.
final class ScriptedSocketCalls: SystemCalls {
    let reads: Mutex<[[UInt8]]>
    let written = Mutex<[[UInt8]]>([])

    init(reads: [[UInt8]]) { self.reads = Mutex(reads) }

    func socket(domain: Int32, type: Int32, protocol: Int32) throws(SystemCallError) -> Int32 { 7 }
    func bind(_ fd: Int32, address: [UInt8]) throws(SystemCallError) {}
    func setsockopt(_ fd: Int32, level: Int32, name: Int32, value: [UInt8]) throws(SystemCallError) {}
    func connectTCP(host: String, port: UInt16) throws(SystemCallError) -> Int32 { throw SystemCallError(call: "connect", errno: ECONNREFUSED) }
    func connectUnix(path: String) throws(SystemCallError) -> Int32 { throw SystemCallError(call: "connect", errno: ENOENT) }
    func openSerial(path: String, baudRate: Int, flowControl: Bool) throws(SystemCallError) -> Int32 { throw SystemCallError(call: "open", errno: ENOENT) }
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool {
        if reads.withLock({ $0.isEmpty }) { usleep(10_000); return false }
        return true
    }
    func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> Int {
        guard let next = reads.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return 0 }
        for (index, byte) in next.enumerated() { buffer[index] = byte }
        return next.count
    }
    func write(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        written.withLock { $0.append(bytes) }
        // The controller answers every command with Command Complete, success.
        reads.withLock { $0.append([0x04, 0x0E, 0x04, 0x01, bytes[1], bytes[2], 0x00]) }
    }
    /// HCIDEVUP on an adapter that is up, as the kernel answers it.
    func ioctl(_ fd: Int32, request: UInt, value: Int32) throws(SystemCallError) { throw SystemCallError(call: "ioctl", errno: EALREADY) }
    func close(_ fd: Int32) {}
    func listDirectory(_ path: String) -> [String] { ["hci0"] }
}

@Suite("Kernel socket packet path (scripted reads)")
struct KernelSocketPacketTests {
    static func collect(_ source: LiveSource, from inbox: SourceInbox, packets wanted: Int) async -> [HCIPacket] {
        Array(await inbox.collect(from: source) { $0.packets.count >= wanted }.packets.prefix(wanted))
    }

    @Test("raw channel: each read is one H4 packet; commands go out as H4 and get their answer")
    func rawChannel() async throws {
        let report = AdvertisingReportEncoder.legacyReportEvent([Advertisement(
            timestamp: 0, address: BDAddress(rawValue: 0xC0_0000_0001), addressType: .randomDevice, eventKind: .advNonconnInd,
            rssi: -70, data: [0x02, 0x01, 0x06][...])])
        let calls = ScriptedSocketCalls(reads: [[0x04] + report])
        let source = LiveSource(spec: .kernel(adapter: 0, channel: .raw), opener: TransportOpener(calls: calls))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        let response = try await source.execute(.leSetScanEnable(true, filterDuplicates: false))
        #expect(response.succeeded)
        #expect(calls.written.withLock { $0 } == [[0x01, 0x0C, 0x20, 0x02, 0x01, 0x00]])
        let packets = await Self.collect(source, from: inbox, packets: 3)
        source.stop()
        // The report, the command as sent (for recordings), and its Command Complete.
        #expect(packets.contains { $0.type == .event && Array($0.payload) == report })
        #expect(packets.contains { $0.direction == .hostToController && $0.h4Bytes == [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00] })
    }

    @Test("monitor channel: each read is a monitor header and a packet, both directions kept, other adapters skipped")
    func monitorChannel() async throws {
        let calls = ScriptedSocketCalls(reads: [
            [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x03, 0x0C, 0x00],             // command from bluetoothd
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00],                               // new index: skipped
            [0x03, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0E, 0x02, 0x09, 0x09],       // hci1's event: not ours
            [0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x0E, 0x02, 0x01, 0x00],       // event
        ])
        let source = LiveSource(spec: .kernel(adapter: 0, channel: .monitor), opener: TransportOpener(calls: calls))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        let packets = await Self.collect(source, from: inbox, packets: 2)
        source.stop()
        #expect(packets.map(\.h4Bytes) == [[0x01, 0x03, 0x0C, 0x00], [0x04, 0x0E, 0x02, 0x01, 0x00]])
        #expect(packets.map(\.direction) == [.hostToController, .controllerToHost])
        #expect(calls.written.withLock { $0.isEmpty }, "the monitor channel sends nothing")
    }
}
