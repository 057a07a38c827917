import Foundation
import PacketSources
@testable import Sessions
import Testing

/// A venue recording's replay state machine stepped by hand with the wall time (no thread, no
/// clock), on recordings written by the product's own `VenueRecordingWriter`: pacing, pause, a
/// step of one message, speed, and seeks (forward delivering every message on the way, unpaced;
/// back announcing `.rewound` and reading again from the start up to the target).
@Suite("Venue replay controls (VenueReplayEngine)")
struct VenueReplayEngineTests {
    static let start = 1_795_411_724.0
    static let espID = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"

    /// A recording of the kitchen node hearing the beacon once a second for `seconds` seconds
    /// (RSSI -60 - i % 5), written through the recorder `--record` uses.
    static func recording(seconds: Int = 30, interval: Double = 1, extra: String = "") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacontop-venue-engine-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        for step in 0..<seconds {
            let payload = #"{"id":"\#(espID)","mac":"c01122334455","rssi@1m":-59,"rssi":\#(-60 - step % 5),"raw":1.2,"distance":1.2,"var":0.1,"int":100}"#
            try writer.write(BrokerMessage(topic: "espresense/devices/\(espID)/kitchen", payload: Array(payload.utf8), receivedAt: start + Double(step) * interval))
        }
        if !extra.isEmpty {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(extra.utf8))
            try handle.close()
        }
        return path
    }

    static func engine(_ path: String, options: ReplayOptions = ReplayOptions(), control: ReplayControl) throws -> VenueReplayEngine {
        VenueReplayEngine(name: path, options: options, control: control, reader: try VenueRecordingReader(path: path)) { resume throws(VenueRecordingError) in
            guard let resume else { return try VenueRecordingReader(path: path) }
            return try VenueRecordingReader(path: path, resumingAt: resume.offset, line: resume.line)
        }
    }

    /// Steps at `wall` until the engine waits or ends: what it emitted, then why it stopped.
    static func run(_ engine: inout VenueReplayEngine, at wall: Double) -> (events: [SourceEvent], then: VenueReplayEngine.Action) {
        var events: [SourceEvent] = []
        while true {
            let action = engine.step(wall: wall)
            guard case .emit(let event) = action else { return (events, action) }
            events.append(event)
        }
    }

    /// Seconds into the recording of each message among `events`.
    static func offsets(_ events: [SourceEvent]) -> [Double] {
        events.compactMap { event in
            if case .brokerMessage(let message) = event { (message.receivedAt - start).rounded() } else { nil }
        }
    }

    @Test("A clock that steps back 20 s mid-recording is a step of zero: the messages after it are paced, not delivered at once")
    func clockStepBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-jump-\(UUID().uuidString.prefix(8)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        for second in Array(0..<30) + Array(10..<20) {
            let payload = #"{"id":"\#(Self.espID)","mac":"c01122334455","rssi@1m":-59,"rssi":-60,"raw":1.2,"distance":1.2,"var":0.1,"int":100}"#
            try writer.write(BrokerMessage(topic: "espresense/devices/\(Self.espID)/kitchen", payload: Array(payload.utf8), receivedAt: Self.start + Double(second)))
        }
        var engine = try Self.engine(path, control: ReplayControl())
        #expect(Self.offsets(Self.run(&engine, at: 100).events) == [0])
        // The step back goes out at once after second 29, the next message a second later, as
        // recorded; their times handed on are moved on by the step (a step of zero, as `replay`
        // ranges them), so the view's clock runs on from 29, not back to 10.
        let (events, then) = Self.run(&engine, at: 129)
        #expect(Self.offsets(events) == Array(1...29).map(Double.init) + [29])
        #expect(then == .wait(1))
        #expect(Self.offsets(Self.run(&engine, at: 130).events) == [30])
    }

    @Test("Paced at its speed; paused it waits with no timer, a step delivers one message, resume goes on from there; + changes the pace")
    func pacePauseStepSpeed() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, control: control)
        var (events, then) = Self.run(&engine, at: 100)
        #expect(Self.offsets(events) == [0])
        #expect(then == .wait(1))
        (events, then) = Self.run(&engine, at: 101)
        #expect(Self.offsets(events) == [1])

        control.pause()
        (events, then) = Self.run(&engine, at: 105)
        #expect(events.isEmpty)
        #expect(then == .wait(.infinity))
        control.step()
        (events, then) = Self.run(&engine, at: 106)
        #expect(Self.offsets(events) == [2])
        #expect(then == .wait(.infinity))
        #expect(control.position.seconds == 2)

        control.resume()
        (events, then) = Self.run(&engine, at: 200)
        #expect(events.isEmpty)
        #expect(then == .wait(1))
        (events, _) = Self.run(&engine, at: 201)
        #expect(Self.offsets(events) == [3])

        control.setSpeed(.factor(4))
        (events, then) = Self.run(&engine, at: 201)
        #expect(then == .wait(0.25))
        (events, _) = Self.run(&engine, at: 201.5)
        #expect(Self.offsets(events) == [4, 5])
    }

    @Test("Through a silence the position runs on at the replay's pace, paused it holds, and a seek counts from it")
    func positionRunsThroughASilence() throws {
        // Two messages a minute apart: a minute of silence.
        let path = try Self.recording(seconds: 2, interval: 60)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, control: control)
        #expect(Self.offsets(Self.run(&engine, at: 100).events) == [0])
        // 20 s into the silence the clock shows 20 s, not the last message's 0 s; a wait is at
        // most a second, so it moves on at least that often.
        #expect(Self.run(&engine, at: 120).then == .wait(1))
        #expect(control.position.seconds == 20)
        control.pause()
        _ = Self.run(&engine, at: 131)
        #expect(control.position.seconds == 31)
        _ = Self.run(&engine, at: 150)
        #expect(control.position.seconds == 31)
        // Back 10 s from the 31 s shown: 21 s, still silent.
        control.seek(by: -10)
        _ = Self.run(&engine, at: 150)
        #expect(control.position.seconds == 21)
    }

    @Test("Seek forward delivers every message up to the target unpaced, then paces from the target")
    func seekForward() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, control: control)
        _ = Self.run(&engine, at: 100)
        _ = Self.run(&engine, at: 102)
        control.seek(by: 10.5)
        let (events, then) = Self.run(&engine, at: 102)
        #expect(Self.offsets(events) == Array(3...12).map(Double.init))
        #expect(!events.contains { if case .notice = $0 { true } else { false } })
        #expect(control.position.seconds == 12.5)
        // 13 s is half a second of recording after the target 12.5 s.
        #expect(then == .wait(0.5))
    }

    @Test("Seek back: .rewound with the target, the recording again from its start up to it unpaced, then paced; presses add up")
    func seekBack() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, options: ReplayOptions(speed: .factor(2)), control: control)
        var (events, then) = Self.run(&engine, at: 100)
        (events, then) = Self.run(&engine, at: 107.5)
        #expect(Self.offsets(events).last == 15)
        control.seek(by: -10)
        control.seek(by: -2)
        (events, then) = Self.run(&engine, at: 108)
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 3, resumeFrom: nil)))
        #expect(Self.offsets(Array(events.dropFirst())) == [0, 1, 2, 3])
        #expect(then == .wait(0.5))
        #expect(control.position.seconds == 3)

        // Back past the start stops at the start: the view starts afresh and nothing is before it.
        control.seek(by: -60)
        (events, then) = Self.run(&engine, at: 109)
        #expect(events.count == 2 && events.first == .notice(.rewound(source: path, target: Self.start, resumeFrom: nil)))
        #expect(Self.offsets(events) == [0])
    }

    @Test("A seek while paused still rebuilds, then stays paused at the target; stop ends a paused replay")
    func seekWhilePausedAndStop() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, control: control)
        _ = Self.run(&engine, at: 100)
        _ = Self.run(&engine, at: 105)
        control.pause()
        control.seek(by: 10)
        var (events, then) = Self.run(&engine, at: 106)
        #expect(Self.offsets(events) == Array(6...14).map(Double.init))
        #expect(then == .wait(.infinity))
        #expect(control.position.seconds == 15)
        control.step()
        (events, _) = Self.run(&engine, at: 106)
        #expect(Self.offsets(events) == [15])
        engine.stop()
        (events, then) = Self.run(&engine, at: 107)
        #expect(events == [.notice(.ended(source: path, reason: "stopped after 16 messages"))])
        #expect(then == .end)
    }

    @Test("A bad line ends the replay with a warning naming it, after the messages before it")
    func badLine() throws {
        let path = try Self.recording(seconds: 3, extra: "{\"t\":\"soon\"}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var engine = try Self.engine(path, options: ReplayOptions(speed: .max), control: ReplayControl())
        let (events, then) = Self.run(&engine, at: 100)
        #expect(Self.offsets(events) == [0, 1, 2])
        #expect(Array(events.suffix(2)) == [
            .notice(.warning(source: path, message: "line 5 has no number \"t\"; replayed up to there")),
            .notice(.ended(source: path, reason: "end of replay after 3 messages")),
        ])
        #expect(then == .end)
    }

    @Test("--from and --to cut the recording as they cut a capture: nothing before from is delivered, the replay ends after to")
    func window() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, options: ReplayOptions(speed: .max, from: 5, to: 10), control: control)
        let (events, then) = Self.run(&engine, at: 100)
        #expect(Self.offsets(events) == Array(5...10).map(Double.init))
        #expect(events.last == .notice(.ended(source: path, reason: "end of replay after 6 messages")))
        #expect(then == .end)
    }

    @Test("A seek back never goes before --from; the rebuild starts at from too")
    func seekBackInAWindow() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, options: ReplayOptions(from: 5), control: control)
        _ = Self.run(&engine, at: 100)
        let (played, _) = Self.run(&engine, at: 103)
        #expect(Self.offsets(played) == [6, 7, 8])
        control.seek(by: -10)
        let (events, then) = Self.run(&engine, at: 103)
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 5, resumeFrom: nil)))
        #expect(Self.offsets(events) == [5])
        #expect(then == .wait(1))
    }

    @Test("--loop starts over 1 s after the pass's last message, times shifted so they keep increasing; a seek back rebuilds the current pass")
    func loop() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, options: ReplayOptions(speed: .factor(1), loop: true, to: 3), control: control)
        var delivered: [SourceEvent] = []
        for wall in stride(from: 100.0, through: 108, by: 1) { delivered += Self.run(&engine, at: wall).events }
        #expect(Self.offsets(delivered) == Array(0...8).map(Double.init))
        // Each loop's notice is followed by where the next pass starts, for the monitor's event log.
        #expect(delivered.filter { if case .notice = $0 { true } else { false } } == [
            .notice(.ended(source: path, reason: "looping (1)")), .notice(.sought(source: path, position: 0, capture: Self.start + 4)),
            .notice(.ended(source: path, reason: "looping (2)")), .notice(.sought(source: path, position: 0, capture: Self.start + 8)),
        ])
        // A new pass's first message comes 1 s after the last one's last, paced as every message
        // is (it went out at once, so each pass ran a second short and a 1-message recording never
        // waited), as a capture's loop does; in the third pass (8 is its 0 s), back to its start:
        // the pass read again from there.
        control.seek(by: -10)
        let (events, _) = Self.run(&engine, at: 108)
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 8, resumeFrom: nil)))
        #expect(Self.offsets(events) == [8])
        #expect(control.position.seconds == 0)
    }

    @Test("A last line cut short (a recorder killed mid-write) is said on the first pass, and --loop loops on as over a whole last line")
    func cutLastLineLoops() throws {
        let path = try Self.recording(seconds: 3, extra: #"{"t":1795411727.000000,"topic":"espresense/dev"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var engine = try Self.engine(path, options: ReplayOptions(speed: .factor(1), loop: true), control: ReplayControl())
        var delivered: [SourceEvent] = []
        for wall in stride(from: 100.0, through: 108, by: 1) { delivered += Self.run(&engine, at: wall).events }
        #expect(Self.offsets(delivered) == Array(0...8).map(Double.init))
        #expect(delivered.filter { if case .notice = $0 { true } else { false } } == [
            .notice(.warning(source: path, message: "line 5 (the last) is cut short: the recording was stopped mid-write; replayed up to there")),
            .notice(.ended(source: path, reason: "looping (1)")), .notice(.sought(source: path, position: 0, capture: Self.start + 3)),
            .notice(.ended(source: path, reason: "looping (2)")), .notice(.sought(source: path, position: 0, capture: Self.start + 6)),
            .notice(.ended(source: path, reason: "looping (3)")), .notice(.sought(source: path, position: 0, capture: Self.start + 9)),
        ])
    }

    @Test("Held at its end, → or . before the monitor took the end notice is said once, not dropped in silence")
    func forwardAtHeldEnd() throws {
        let path = try Self.recording(seconds: 3)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = try Self.engine(path, options: ReplayOptions(speed: .max, holdAtEnd: true), control: control)
        let played = Self.run(&engine, at: 100)
        #expect(played.events.last == .notice(.ended(source: path, reason: "end of replay after 3 messages")) && played.then == .wait(.infinity), "\(played.events)")
        control.seek(by: 10)
        control.step()
        let forward = Self.run(&engine, at: 101)
        #expect(forward.events == [.notice(.nothingFurther(source: path))] && forward.then == .wait(.infinity))
        #expect(Self.run(&engine, at: 102).events.isEmpty)
    }
}
