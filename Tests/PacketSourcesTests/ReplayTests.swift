import HCI
import Synchronization
import TestFixtures
import Testing
@testable import PacketSources

/// Packets from an array, as a capture reader would give them.
struct ArrayReader: ReplayPacketReader {
    var packets: [HCIPacket]
    var index = 0
    var endNote: String?

    mutating func nextPacket() throws -> HCIPacket? {
        guard index < packets.count else { return nil }
        defer { index += 1 }
        return packets[index]
    }
}

func eventPacket(at time: Double, _ marker: UInt8) -> HCIPacket {
    HCIPacket(timestamp: time, direction: .controllerToHost, type: .event, payload: [0x0E, 0x01, marker])
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    let time = Mutex(1000.0)
    func now() -> Double { time.withLock { $0 } }
}

@Suite("Replay pacing (pure)")
struct ReplayPacerTests {
    @Test("real time, then double speed from where it is, without a jump")
    func speedChange() {
        var pacer = ReplayPacer(captureStart: 50, wallStart: 1000, speed: .factor(1))
        #expect(pacer.delay(until: 53, atWall: 1000) == 3)
        #expect(pacer.delay(until: 53, atWall: 1004) == 0)
        #expect(pacer.captureTime(atWall: 1002) == 52)
        pacer.setSpeed(.factor(2), atWall: 1002, lastCaptureTime: 51)
        #expect(pacer.captureTime(atWall: 1002) == 52)
        #expect(pacer.delay(until: 56, atWall: 1002) == 2)
        pacer.setSpeed(.max, atWall: 1003, lastCaptureTime: 54)
        #expect(pacer.delay(until: 3600, atWall: 1003) == 0)
    }

    @Test("pause holds the position; resume continues from it")
    func pause() {
        var pacer = ReplayPacer(captureStart: 0, wallStart: 100, speed: .factor(0.25))
        pacer.pause(atWall: 104, lastCaptureTime: 0.9)
        #expect(pacer.captureTime(atWall: 500) == 1)
        #expect(pacer.delay(until: 2, atWall: 500) == nil)
        pacer.stepped(to: 1.5)
        pacer.resume(atWall: 600)
        #expect(pacer.captureTime(atWall: 600) == 1.5)
        #expect(pacer.delay(until: 2, atWall: 600) == 2)
    }

    @Test("--speed accepts 0.25 to 100 and max, and names the flag otherwise")
    func speedParsing() throws {
        #expect(try ReplaySpeed(parsing: "max") == .max)
        #expect(try ReplaySpeed(parsing: "0.25") == .factor(0.25))
        #expect(try ReplaySpeed(parsing: "10x") == .factor(10))
        #expect(throws: SourceSpecError(spec: "0.1", part: "--speed", problem: "must be 0.25 to 100, or max")) { try ReplaySpeed(parsing: "0.1") }
        #expect(throws: SourceSpecError.self) { try ReplaySpeed(parsing: "fast") }
    }
}

@Suite("Replay source")
struct ReplaySourceTests {
    static func drain(_ source: ReplaySource, into inbox: SourceInbox = SourceInbox()) async throws -> (packets: [HCIPacket], statuses: [SourceNotice]) {
        try source.start(into: inbox)
        let events = await inbox.collect(from: source)
        return (events.packets, events.notices)
    }

    static let capture = (0..<10).map { eventPacket(at: 100 + Double($0) * 60, UInt8($0)) }

    @Test("max speed delivers everything at once with capture timestamps, then says it ended")
    func maxSpeed() async throws {
        let source = ReplaySource(name: "test.btsnoop", options: ReplayOptions(speed: .max)) {
            ArrayReader(packets: Self.capture, endNote: "torn final record at byte 400")
        }
        let (packets, statuses) = try await Self.drain(source)
        #expect(packets == Self.capture)
        #expect(statuses.last == .ended(source: "test.btsnoop", reason: "end of replay after 10 packets: torn final record at byte 400"))
        #expect(source.control.position.packets == 10)
    }

    /// A replay waits for room: an inbox of four events takes a 2,000-packet file whole, in order.
    @Test("a full inbox holds a replay back and nothing is dropped")
    func backPressure() async throws {
        let many = (0..<2000).map { eventPacket(at: Double($0), UInt8($0 % 256)) }
        let source = ReplaySource(name: "many", options: ReplayOptions(speed: .max)) { ArrayReader(packets: many) }
        let inbox = SourceInbox(capacity: 4)
        let (packets, _) = try await Self.drain(source, into: inbox)
        #expect(packets == many)
        #expect(inbox.droppedPackets == 0)
    }

    @Test("--from and --to cut the capture by seconds after its first packet")
    func window() async throws {
        let source = ReplaySource(name: "f", options: ReplayOptions(speed: .max, from: 120, to: 300)) { ArrayReader(packets: Self.capture) }
        let (packets, _) = try await Self.drain(source)
        #expect(packets.map(\.timestamp) == [220, 280, 340, 400])
    }

    @Test("--loop starts over with timestamps that keep increasing")
    func loop() async throws {
        let source = ReplaySource(name: "f", options: ReplayOptions(speed: .max, loop: true, to: 120)) { ArrayReader(packets: Self.capture) }
        let inbox = SourceInbox(capacity: 2)
        try source.start(into: inbox)
        var events = await inbox.collect(from: source) { $0.packets.count >= 9 }
        source.stop()
        events += await inbox.collect(from: source)
        // Each loop starts 1 s after the previous one's last packet.
        #expect(events.packets.prefix(9).map(\.timestamp) == [100, 160, 220, 221, 281, 341, 342, 402, 462])
        #expect(events.notices.last == .ended(source: "f", reason: "stopped"))
    }

    @Test("paused, the replay delivers only the packets stepped through")
    func steps() async throws {
        let clock = ManualClock()
        let control = ReplayControl(paused: true)
        let source = ReplaySource(name: "f", options: ReplayOptions(speed: .factor(1)), control: control, now: clock.now) {
            ArrayReader(packets: Self.capture)
        }
        let inbox = SourceInbox()
        try source.start(into: inbox)
        control.step()
        control.step()
        let received = await inbox.collect(from: source) { $0.packets.count >= 2 }.packets
        #expect(received == Array(Self.capture.prefix(2)))
        #expect(control.position == (seconds: 60, packets: 2))
        // The clock does not move: nothing more comes until resumed at max speed.
        control.setSpeed(.max)
        control.resume()
        let rest = await inbox.collect(from: source).packets
        #expect(rest == Array(Self.capture.dropFirst(2)))
    }

    @Test("an unreadable file fails at start")
    func unreadable() {
        struct Missing: Error {}
        let source = ReplaySource(name: "nope") { throw Missing() }
        #expect(throws: Missing.self) { try source.start(into: SourceInbox()) }
    }
}
