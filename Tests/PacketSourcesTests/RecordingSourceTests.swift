import HCI
import Synchronization
import TestFixtures
import Testing
@testable import PacketSources

/// Keeps what it is given; fails after `limit` packets when set (a full disk).
struct MemoryRecorder: PacketRecorder {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
    let written: SharedPackets
    var limit: Int?

    mutating func write(_ packet: HCIPacket) throws {
        if let limit, written.count >= limit { throw DiskFull() }
        written.append(packet)
    }
}

final class SharedPackets: Sendable {
    private let packets = Mutex<[HCIPacket]>([])
    func append(_ packet: HCIPacket) { packets.withLock { $0.append(packet) } }
    var count: Int { packets.withLock { $0.count } }
    var all: [HCIPacket] { packets.withLock { $0 } }
}

@Suite("Recording wraps any source")
struct RecordingSourceTests {
    static func replay(paced clock: ManualClock? = nil) -> ReplaySource {
        if let clock {
            return ReplaySource(name: "r", options: ReplayOptions(speed: .factor(1)), now: clock.now) { ArrayReader(packets: ReplaySourceTests.capture) }
        }
        return ReplaySource(name: "r", options: ReplayOptions(speed: .max)) { ArrayReader(packets: ReplaySourceTests.capture) }
    }

    @Test("every packet is recorded and passed on unchanged; the start is a notice before them")
    func records() async throws {
        let written = SharedPackets()
        let source = RecordingSource(Self.replay()) { _ in MemoryRecorder(written: written) }
        try source.startRecording(to: "out.btsnoop")
        let events = try await source.collectAll()
        #expect(events.packets == ReplaySourceTests.capture)
        #expect(written.all == ReplaySourceTests.capture)
        #expect(events.first == .notice(.recordingStarted(path: "out.btsnoop")))
        #expect(source.recordingPath == "out.btsnoop")
    }

    @Test("a failing recorder is reported once and the source goes on")
    func writeFailure() async throws {
        let written = SharedPackets()
        let source = RecordingSource(Self.replay()) { _ in MemoryRecorder(written: written, limit: 3) }
        try source.startRecording(to: "out.btsnoop")
        let events = try await source.collectAll()
        #expect(events.packets.count == 10)
        #expect(written.count == 3)
        #expect(events.notices.filter { if case .recordingFailed = $0 { true } else { false } } == [
            .recordingFailed(path: "out.btsnoop", reason: "No space left on device"),
        ])
        #expect("\(SourceNotice.recordingFailed(path: "out.btsnoop", reason: "No space left on device"))"
            == "recording out.btsnoop: lost (No space left on device; recording stopped)")
        #expect(source.recordingPath == nil)
    }

    /// The monitor's `r`: recording starts and stops while the source runs; only the packets in
    /// between are written, and each change is a notice in the stream.
    @Test("recording starts and stops while the source runs")
    func toggles() async throws {
        let clock = ManualClock()
        let written = SharedPackets()
        let source = RecordingSource(Self.replay(paced: clock)) { _ in MemoryRecorder(written: written) }
        let inbox = SourceInbox()
        try source.start(into: inbox)
        // The capture's packets are 60 s apart: the clock lets them through one by one.
        var events = await inbox.collect(from: source) { $0.packets.count >= 1 }
        try source.startRecording(to: "a.btsnoop")
        clock.time.withLock { $0 += 120 }
        events += await inbox.collect(from: source) { $0.packets.count >= 2 }
        let stopped = source.stopRecording()
        #expect(stopped?.path == "a.btsnoop")
        clock.time.withLock { $0 += 10_000 }
        events += await inbox.collect(from: source)
        #expect(stopped?.packets == 2)
        #expect(written.all == Array(ReplaySourceTests.capture[1...2]))
        #expect(events.packets == ReplaySourceTests.capture)
        #expect(events.notices.contains(.recordingStarted(path: "a.btsnoop")))
        #expect(events.notices.contains(.recordingStopped(path: "a.btsnoop", packets: written.count)))
        #expect(source.stopRecording() == nil)
    }

    @Test("a recording that cannot be created throws and changes nothing")
    func unwritable() throws {
        let source = RecordingSource(Self.replay())
        #expect(throws: (any Error).self) { try source.startRecording(to: "/nonexistent-dir/out.btsnoop") }
        #expect(source.recordingPath == nil)
    }
}
