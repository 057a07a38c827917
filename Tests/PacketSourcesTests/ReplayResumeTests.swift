import Captures
import HCI
import Synchronization
import TestFixtures
import Testing
@testable import PacketSources

/// A seek back opens the capture again at a resume point kept while reading, not at its start:
/// the same packets follow as from the start, and at most a checkpoint's worth is read to reach
/// them (it read the whole file up to the target: 2.6 s near the end of a 1.4 GB capture).
@Suite("Replay seek back from a resume point")
struct ReplayResumeTests {
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// A capture reader that counts the packets read through it and its resumed copies; with
    /// `resumable` false it cannot be resumed, as the replay read before resume points.
    struct CountingReader: ReplayPacketReader {
        var inner: any ReplayPacketReader
        let reads: Counter
        let resumable: Bool

        mutating func nextPacket() throws -> HCIPacket? {
            reads.value.withLock { $0 += 1 }
            return try inner.nextPacket()
        }

        var endNote: String? { inner.endNote }
        var resumePoint: CaptureResumePoint? { resumable ? inner.resumePoint : nil }

        func resumed(at point: CaptureResumePoint) throws -> (any ReplayPacketReader)? {
            guard resumable, let reader = try inner.resumed(at: point) else { return nil }
            return CountingReader(inner: reader, reads: reads, resumable: true)
        }
    }

    /// What the replay delivers after `delivered` packets and a seek back by `seconds`: the next
    /// `count` packets (delivered time and payload), and the packets read
    /// to find them.
    static func afterSeekBack(_ path: String, delivered: Int, seconds: Double, count: Int, resumable: Bool) throws
        -> (packets: [String], reads: Int)
    {
        let reads = Counter()
        let open: @Sendable () throws -> any ReplayPacketReader = {
            CountingReader(inner: try CaptureReplayReader(path: path), reads: reads, resumable: resumable)
        }
        let control = ReplayControl()
        var engine = ReplayEngine(
            name: path, options: ReplayOptions(speed: .max), control: control, reader: try open(), checkpointEvery: 64, makeReader: open
        )
        var packets: [HCIPacket] = []
        func deliver(_ wanted: Int) {
            while packets.count < wanted, case .emit(let event) = engine.step(wall: 0) {
                if case .packet(let packet) = event { packets.append(packet) }
            }
        }
        deliver(delivered)
        try #require(packets.count == delivered, "the capture holds fewer packets")
        let last = try #require(packets.last).timestamp
        reads.value.withLock { $0 = 0 }
        control.seek(by: -seconds)
        deliver(delivered + count)
        try #require(packets.count == delivered + count, "the replay ended too soon after the seek")
        let after = packets[delivered...]
        #expect(after.first.map { $0.timestamp >= last } == true, "time runs on after the seek back")
        return (after.map { String(format: "%.6f ", $0.timestamp) + $0.payload.map { String($0, radix: 16) }.joined() },
                reads.value.withLock { $0 })
    }

    @Test("the packets after a seek back are those read from the start; far fewer records are read", arguments: [
        ("govee-h5100.btsnoop", 18_000), ("govee-h5105.pcapng", 1_000), ("govee-inout.pcap", 150),
        ("pact-nrf-sniffer-6ft.pcapng", 9_000), ("ll-phdr-no-rssi.pcapng", 2_300),
    ])
    func sameAsFromTheStart(file: String, delivered: Int) throws {
        let path = SharedData.capture(file).path
        let resumed = try Self.afterSeekBack(path, delivered: delivered, seconds: 10, count: 40, resumable: true)
        let fromStart = try Self.afterSeekBack(path, delivered: delivered, seconds: 10, count: 40, resumable: false)
        #expect(resumed.packets == fromStart.packets)
        #expect(resumed.packets.count == 40)
        // From the start, every record before the target is read again; from a resume point at
        // least one checkpoint's worth (64) fewer (govee-h5100: 1,129 instead of 17,193).
        #expect(fromStart.reads - resumed.reads >= 64, "from the start \(fromStart.reads), resumed \(resumed.reads)")
    }
}
