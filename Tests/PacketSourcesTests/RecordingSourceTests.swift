import HCI
import Synchronization
import Testing
@testable import PacketSources

/// Keeps what it is given; fails after `limit` packets when set (a full disk).
struct MemoryRecorder: PacketRecorder {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
    let written = SharedPackets()
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
    @Test("every packet is recorded and passed on unchanged")
    func records() async throws {
        let recorder = MemoryRecorder()
        let inner = ReplaySource(name: "r", options: ReplayOptions(speed: .max)) { ArrayReader(packets: ReplaySourceTests.capture) }
        let source = RecordingSource(inner, recorder: recorder, path: "out.btsnoop")
        try source.start()
        var passed: [HCIPacket] = []
        for await event in source.events { if case .packet(let packet) = event { passed.append(packet) } }
        #expect(passed == ReplaySourceTests.capture)
        #expect(recorder.written.all == ReplaySourceTests.capture)
    }

    @Test("a failing recorder is reported once and the source goes on")
    func writeFailure() async throws {
        let recorder = MemoryRecorder(limit: 3)
        let inner = ReplaySource(name: "r", options: ReplayOptions(speed: .max)) { ArrayReader(packets: ReplaySourceTests.capture) }
        let source = RecordingSource(inner, recorder: recorder, path: "out.btsnoop")
        try source.start()
        var passed = 0
        var statuses: [SourceNotice] = []
        for await event in source.events {
            switch event {
            case .packet: passed += 1
            case .notice(let status): statuses.append(status)
            }
        }
        #expect(passed == 10)
        #expect(recorder.written.count == 3)
        #expect(statuses.filter { if case .lost = $0 { true } else { false } } == [
            .lost(source: "recording out.btsnoop", reason: "No space left on device; recording stopped"),
        ])
        #expect(!source.isRecording)
    }
}
