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

    /// Reopened at a resume point (one every 1,000 packets) as well as from the start (the default
    /// keeps one every 16,384, past the seek): each carries the clock as it was there.
    @Test("the position runs on through the jump, the length counts it so, and ← after it lands 10 s before the position shown",
          arguments: [ReplayEngine.defaultCheckpointEvery, 1000])
    func positionAndSeekInPlayTime(checkpointEvery: Int) throws {
        let (path, firstAfter) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        let control = ReplayControl()
        var engine = ReplayEngine(name: "jump", options: ReplayOptions(speed: .max), control: control, reader: try open(),
                                  checkpointEvery: checkpointEvery, makeReader: open)
        // Each packet's bytes and the position shown once it was played.
        var played: [(bytes: [UInt8], position: Double)] = []
        var afterSeek: [UInt8]?
        var shownBeforeSeek = 0.0
        loop: while afterSeek == nil {
            switch engine.step(wall: 0) {
            case .emit(.packet(let packet)):
                if played.count == firstAfter + 2000 {
                    afterSeek = Array(packet.payload)
                    break loop
                }
                played.append((Array(packet.payload), control.position.seconds))
                if played.count == firstAfter + 2000 {
                    shownBeforeSeek = control.position.seconds
                    control.seek(by: -10)
                }
            case .emit, .wait: continue
            case .end: break loop
            }
        }
        let landed = try #require(afterSeek)
        // The position never runs back with the file's clock: it went from 05:00 to 03:20 there.
        let back = zip(played, played.dropFirst()).filter { $1.position < $0.position - ReplayEngine.batchWindow }
        #expect(back.isEmpty, "the position ran back \(back.prefix(2).map { $0.0.position - $0.1.position }) s")
        #expect(shownBeforeSeek > 310, "\(shownBeforeSeek) s shown \(2000) packets after the jump at 300 s")
        // ← lands on the first packet 10 s before the position shown, after the jump: it found the
        // same file times before the jump, 110 s back.
        let target = try #require(played.firstIndex { $0.position >= shownBeforeSeek - 10 })
        #expect(target >= firstAfter)
        #expect(landed == played[target].bytes, "landed on another packet than the one 10 s back")
        #expect(abs(control.position.seconds - (shownBeforeSeek - 10)) <= 1, "\(control.position.seconds) s after ← from \(shownBeforeSeek) s")
        // The length the status line shows is the replay's: the capture's less the step's gap, not 100 s short.
        let length = try #require(CaptureClock.replayLength(path: path))
        let original = try #require(CaptureClock.replayLength(path: SharedData.capture("govee-h5100.btsnoop").path))
        #expect(abs(length - original) < 1, "\(length) s, \(original) s without the jump")
    }

    @Test("--loop over the jump: every pass is paced, timed and positioned as the first")
    func loopingOverTheJump() throws {
        let (path, _) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        let control = ReplayControl()
        var engine = ReplayEngine(name: "jump", options: ReplayOptions(speed: .factor(1), loop: true), control: control, reader: try open(), makeReader: open)
        // Per pass: (handed-out time, wall time, position shown) of every packet.
        var passes: [[(time: Double, wall: Double, position: Double)]] = [[]]
        var wall = 0.0
        while passes.count <= 3 {
            switch engine.step(wall: wall) {
            case .emit(.packet(let packet)): passes[passes.count - 1].append((packet.timestamp, wall, control.position.seconds))
            case .emit(.notice(.ended(_, let reason))):
                #expect(reason.hasPrefix("looping"), "\(reason)")
                passes.append([])
            case .emit: continue
            case .wait(let seconds): wall += seconds
            case .end: Issue.record("a loop ended"); return
            }
        }
        let whole = passes.prefix(3).flatMap { $0 }
        // Handed-out time never runs back, within a pass or across a loop (ticks and ranging run on).
        let back = zip(whole, whole.dropFirst()).filter { $1.time < $0.time - ReplayEngine.batchWindow }
        #expect(back.isEmpty, "ran back \(back.prefix(3).map { $0.0.time - $0.1.time }) s")
        let first = passes[0]
        for (previous, pass) in zip(passes[0...1], passes[1...2]) {
            try #require(pass.count == first.count)
            // A pass starts 1 s after the last one's last packet, as over a capture with no step.
            #expect(abs(pass[0].time - (previous.last?.time ?? 0) - 1) < 1e-6, "\(pass[0].time - (previous.last?.time ?? 0)) s between passes")
            // The same packets a pass's length (and the 1 s between passes) after the last pass's,
            // in wall time as in handed-out time: the step back paced as a step of zero in every
            // pass, not only the first, and the gap between passes paced too. (Measured from each
            // pass's first packet, which the batch window may hand out early since the pacer runs
            // on across the loop.)
            let period = pass[0].time - previous[0].time
            let drift = zip(previous, pass).map { abs(($1.wall - $0.wall) - period) }.max() ?? 0
            #expect(drift <= ReplayEngine.batchWindow + 1e-9, "a pass played \(drift) s off the first's pace")
            #expect(zip(first, pass).allSatisfy { abs(($1.time - pass[0].time) - ($0.time - first[0].time)) < 1e-6 })
            // The position starts over at 0 and runs on through the step as in the first pass.
            #expect(zip(first, pass).allSatisfy { abs($1.position - $0.position) < 1e-6 })
            #expect(pass[0].position == 0 && (pass.last?.position ?? 0) > 390)
        }
    }
}
