import Foundation
import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// A capture whose clock jumps back mid-file (a phone's clock set back while it logged): a paced
/// replay takes the step back as a step of zero and paces on from the packet after it, as
/// tcpreplay 3 did ("Packet has gone back in time!": no sleep, then the deltas from there). It
/// played every packet after the jump at once, until their times passed where the jump started.
@Suite("Replay: a clock that jumps back")
struct ReplayClockJumpTests {
    /// Every packet's capture time and the wall time it was handed out at, the engine stepped on a
    /// clock that jumps to each wait's end (no real time passes).
    static func play(_ path: String) throws -> [(capture: Double, wall: Double)] {
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        var engine = ReplayEngine(name: "jump", options: ReplayOptions(speed: .factor(1)), control: ReplayControl(), reader: try open(), makeReader: open)
        var wall = 0.0
        var played: [(Double, Double)] = []
        while true {
            switch engine.step(wall: wall) {
            case .emit(.packet(let packet)): played.append((packet.timestamp, wall))
            case .emit: continue
            case .wait(let seconds): wall += seconds
            case .end: return played
            }
        }
    }

    @Test("the packets after the jump are paced by their own steps, not played at once")
    func stepBackIsAStepOfZero() throws {
        let (path, firstAfter) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let played = try Self.play(path)
        #expect(played.count > firstAfter + 100)
        let before = played[firstAfter - 1]
        let jump = played[firstAfter]
        // Ranging time runs on: the packet after the jump is handed out at the time of the one
        // before it (a step of zero), not 100 s earlier (its filters, rates and ticks ran back).
        #expect(jump.capture >= before.capture && jump.capture - before.capture <= ReplayEngine.batchWindow,
                "handed out \(jump.capture - before.capture) s after the packet before the jump")
        #expect(zip(played, played.dropFirst()).allSatisfy { $1.capture >= $0.capture - ReplayEngine.batchWindow })
        // A step of zero: the first packet after the jump goes out as soon as the one before it.
        #expect(jump.wall - before.wall <= ReplayEngine.batchWindow)
        // From there every packet keeps its distance from the jump's, to the batch window.
        for packet in played[firstAfter...] {
            #expect(abs((packet.wall - jump.wall) - (packet.capture - jump.capture)) <= ReplayEngine.batchWindow + 1e-9,
                    "\(packet.capture - jump.capture) s after the jump, played \(packet.wall - jump.wall) s after it")
        }
        // The whole replay takes the capture's length less the 100 s the clock went back.
        let last = try #require(played.last)
        #expect(abs(last.wall - (before.capture - played[0].capture) - (last.capture - jump.capture)) <= 0.1)
    }

    @Test("a seek back after the jump (← in the monitor) hands out times that still never run back")
    func seekBackAfterTheJump() throws {
        let (path, firstAfter) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        let control = ReplayControl()
        var engine = ReplayEngine(name: "jump", options: ReplayOptions(speed: .max), control: control, reader: try open(), makeReader: open)
        var times: [Double] = []
        var seeked = false
        loop: while true {
            switch engine.step(wall: 0) {
            case .emit(.packet(let packet)):
                times.append(packet.timestamp)
                if !seeked, times.count == firstAfter + 200 {
                    control.seek(by: -30)
                    seeked = true
                }
            case .emit, .wait: continue
            case .end: break loop
            }
        }
        #expect(seeked && times.count > firstAfter + 300)
        let back = zip(times, times.dropFirst()).filter { $1 < $0 - ReplayEngine.batchWindow }
        #expect(back.isEmpty, "ran back \(back.prefix(3).map { $0.0 - $0.1 }) s")
        // Nor on by the seek's distance again: the seek back is no step back of the capture's clock.
        let across = times[firstAfter + 200] - times[firstAfter + 199]
        #expect(across >= 0 && across < 5, "the packet after the seek is \(across) s after the one before")
    }
}
