import Foundation
import PacketSources
@testable import Sessions
import Testing

/// A venue recording whose receive times step back (the host's clock set back while it recorded,
/// before `LiveClock`): the replay takes the step as one of zero in every time it works with, as a
/// capture's replay does (`ReplayClockJumpTests`). Taken on the times handed on only, the position
/// ran back with the recording's clock, ← after the step landed a pass earlier (the target was a
/// recorded time the recording holds twice), and --loop's passes ran back inside each.
@Suite("Venue replay over a clock step back (VenueReplayEngine)")
struct VenueReplayClockStepTests {
    static let start = VenueReplayEngineTests.start

    /// The kitchen node once a second for `before` seconds, then its clock set back `back` s: the
    /// same second by second from there for `after` messages. Replay time: 0..<before, then a step
    /// of zero (the first message after it at `before - 1`), then a second each.
    static func recording(before: Int, back: Int, after: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-step-\(UUID().uuidString.prefix(8)).venue.ndjson").path
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        let espID = VenueReplayEngineTests.espID
        for second in Array(0..<before) + Array((before - back)..<(before - back + after)) {
            let payload = #"{"id":"\#(espID)","mac":"c01122334455","rssi@1m":-59,"rssi":-60,"raw":1.2,"distance":1.2,"var":0.1,"int":100}"#
            try writer.write(BrokerMessage(topic: "espresense/devices/\(espID)/kitchen", payload: Array(payload.utf8), receivedAt: start + Double(second)))
        }
        return path
    }

    /// The whole seconds of `ranges`, one after another.
    static func seconds(_ ranges: ClosedRange<Int>...) -> [Double] {
        ranges.flatMap { $0.map(Double.init) }
    }

    /// A minute and a half, set back 50 s, another minute: with checkpoints (one a minute of replay
    /// time, the one at 120 s after the step) ← from 140 s resumes at 120 s with the clock as it
    /// was there; without them it reads again from the start, the clock started afresh.
    @Test("← after the step lands 10 s before the position shown, from the start or from a checkpoint after the step",
          arguments: [false, true])
    func seekBackAfterTheStep(checkpoints: Bool) throws {
        let path = try Self.recording(before: 90, back: 50, after: 60)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        if checkpoints { control.acceptCheckpoints() }
        var engine = try VenueReplayEngineTests.engine(path, control: control)
        var (events, _) = VenueReplayEngineTests.run(&engine, at: 100)
        #expect(VenueReplayEngineTests.offsets(events) == [0])
        (events, _) = VenueReplayEngineTests.run(&engine, at: 240)
        let played = VenueReplayEngineTests.offsets(events)
        // The position runs on through the step (it went from 89 s back to 40 s) and the times
        // handed on with it.
        #expect(played == Self.seconds(1...89, 89...140))
        #expect(control.position.seconds == 140)

        control.seek(by: -10)
        (events, _) = VenueReplayEngineTests.run(&engine, at: 240)
        let resumed: ReplayCheckpoint? = checkpoints ? ReplayCheckpoint(id: 3, seconds: 120) : nil
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 130, resumeFrom: resumed)))
        // It landed on 130 s after the step (it aimed at the recorded 81 s, before the step: 81 s shown).
        let again = VenueReplayEngineTests.offsets(events)
        #expect(again == (checkpoints ? Self.seconds(120...130) : Self.seconds(0...89, 89...130)))
        #expect(control.position.seconds == 130)
        // And plays on, paced, from there.
        (events, _) = VenueReplayEngineTests.run(&engine, at: 241)
        #expect(VenueReplayEngineTests.offsets(events) == [131])
    }

    @Test("--loop over the step: every pass is timed and positioned as the first, a second after the last")
    func loopingOverTheStep() throws {
        let path = try Self.recording(before: 30, back: 20, after: 30)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try VenueReplayEngineTests.engine(path, options: ReplayOptions(speed: .max, loop: true), control: control)
        // Per pass: (handed-on time, position shown) of every message.
        var passes: [[(time: Double, position: Double)]] = [[]]
        while passes.count <= 3 {
            switch engine.step(wall: 0) {
            case .emit(.brokerMessage(let message)): passes[passes.count - 1].append((message.receivedAt - Self.start, control.position.seconds))
            case .emit(.notice(.ended(_, let reason))):
                #expect(reason.hasPrefix("looping"), "\(reason)")
                passes.append([])
            case .emit, .wait: continue
            case .end: Issue.record("a loop ended"); return
            }
        }
        let first = passes[0]
        let positions = first.map(\.position)
        #expect(positions == Self.seconds(0...29, 29...58))
        for (previous, pass) in zip(passes[0...1], passes[1...2]) {
            try #require(pass.count == first.count)
            #expect(pass[0].time - (previous.last?.time ?? 0) == 1, "\(pass[0].time - (previous.last?.time ?? 0)) s between passes")
            let times = pass.map { $0.time - pass[0].time }, firstTimes = first.map { $0.time - first[0].time }
            #expect(times == firstTimes)
            let passPositions = pass.map(\.position)
            #expect(passPositions == positions)
        }
    }
}
