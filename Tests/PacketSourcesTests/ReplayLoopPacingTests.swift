import Foundation
import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// `--loop` paces the 1 s between passes as it paces the packets: the next pass's first packet is
/// handed out 1 s of capture time after the last pass's last, at the speed the replay runs at now.
/// Each pass started a new pacer at once: a 1-packet capture looped without a pause (8.6 hours of
/// capture time in 2 s of `scan --loop --speed 1`) and a speed set with `+` went back to `--speed`.
@Suite("Replay: --loop pacing")
struct ReplayLoopPacingTests {
    /// The first `count` packets the engine hands out, each with the wall time it went out at; the
    /// wall jumps to each wait's end (no real time passes). `before` runs ahead of each step.
    static func play(_ engine: inout ReplayEngine, count: Int, before: (Int) -> Void = { _ in }) -> [(time: Double, wall: Double)] {
        var wall = 0.0
        var played: [(Double, Double)] = []
        // Bounded: an engine that never waits would otherwise loop here for ever.
        for _ in 0..<10_000 where played.count < count {
            before(played.count)
            switch engine.step(wall: wall) {
            case .emit(.packet(let packet)): played.append((packet.timestamp, wall))
            case .emit: continue
            case .wait(let seconds): wall += seconds
            case .end: return played
            }
        }
        return played
    }

    /// The first record of a real capture, alone in a btsnoop file.
    static func onePacketCapture() throws -> String {
        let bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        let included = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("one-packet-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes[0..<(16 + 24 + included)]).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A 1-packet capture looped at 1x: one pass a second, its time a second on")
    func onePacketLoop() throws {
        let path = try Self.onePacketCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        var engine = ReplayEngine(name: "one", options: ReplayOptions(speed: .factor(1), loop: true), control: ReplayControl(), reader: try open(), makeReader: open)
        let played = Self.play(&engine, count: 4)
        try #require(played.count == 4)
        #expect(played.map { $0.wall } == [0, 1, 2, 3])
        #expect(played.map { $0.time - played[0].time } == [0, 1, 2, 3])
    }

    @Test("A speed set during a pass holds in the next, and paces the gap between them")
    func speedHoldsAcrossALoop() throws {
        let control = ReplayControl()
        let packets = [eventPacket(at: 100, 1), eventPacket(at: 101, 2), eventPacket(at: 102, 3)]
        var engine = ReplayEngine(name: "f", options: ReplayOptions(speed: .factor(1), loop: true), control: control,
                                  reader: ArrayReader(packets: packets)) { ArrayReader(packets: packets) }
        let played = Self.play(&engine, count: 6) { if $0 == 1 { control.setSpeed(.factor(4)) } }
        try #require(played.count == 6)
        // 100 at once, then 4x from there: 101 and 102 a quarter second apart; the next pass's
        // first packet (103) 1 s of capture time later, and its packets a quarter second apart.
        #expect(played.map(\.time) == [100, 101, 102, 103, 104, 105])
        #expect(played.map(\.wall) == [0, 0.25, 0.5, 0.75, 1, 1.25])
    }

    /// Each pass's times are shifted on by the passes before (`loopOffset`), so the monitor's log
    /// turned an event's capture time into a position from the last pass's anchor until its next
    /// tick: an event just after a loop showed the last pass's end, as one after a seek back did.
    @Test("--loop says where each pass starts again (position and the capture time it is delivered from), after the loop's notice")
    func aLoopSaysWhereThePassStarts() {
        let packets = [eventPacket(at: 100, 1), eventPacket(at: 101, 2), eventPacket(at: 102, 3)]
        var engine = ReplayEngine(name: "f", options: ReplayOptions(speed: .max, loop: true, from: 1), control: ReplayControl(),
                                  reader: ArrayReader(packets: packets)) { ArrayReader(packets: packets) }
        var events: [String] = []
        for _ in 0..<100 where events.filter({ $0.hasPrefix("packet") }).count < 5 {
            switch engine.step(wall: 0) {
            case .emit(.packet(let packet)): events.append("packet \(packet.timestamp)")
            case .emit(.notice(let notice)) where notice != .connected(source: "f"): events.append("\(notice)")
            case .end: break
            default: continue
            }
        }
        // --from 1: each pass plays 101 and 102; the second is delivered from 101 + 2 (the pass, 1 s, and the gap).
        #expect(events == [
            "packet 101.0", "packet 102.0", "f: looping (1)", "f: at 1 s", "packet 103.0", "packet 104.0",
            "f: looping (2)", "f: at 1 s", "packet 105.0",
        ])
        var notices: [SourceNotice] = []
        var again = ReplayEngine(name: "f", options: ReplayOptions(speed: .max, loop: true, from: 1), control: ReplayControl(),
                                 reader: ArrayReader(packets: packets)) { ArrayReader(packets: packets) }
        for _ in 0..<20 { if case .emit(.notice(let notice)) = again.step(wall: 0) { notices.append(notice) } }
        #expect(notices.contains(.sought(source: "f", position: 1, capture: 103)), "\(notices)")
    }
}
