import Foundation
import Monitor
import PacketSources
@testable import Sessions
import TestFixtures
import Testing
import Venue

/// A seek back on a venue recording resumes from the latest checkpoint at or before its target
/// instead of re-reading the recording from its start: the engine stepped by hand (no thread, no
/// clock) into a `MonitorFeed`, once with checkpoints and once without, on the fixtures and on a
/// recording whose visits span checkpoints. The view, the log and what is published must be the
/// same either way; the count of messages read after the seek says which way it went.
@Suite("Seek back from a venue checkpoint")
struct VenueCheckpointTests {
    static let start = VenueReplayEngineTests.start
    static let id = VenueReplayEngineTests.espID

    /// Two beacons, two rooms, a reading each second: beacon 1 in the kitchen 30-100 s (a visit
    /// across the 60 s checkpoint) then the hall 130-200 s (across 120 and 180 s); beacon 2 in the
    /// hall 50-170 s.
    static func spanningRecording() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacontop-venue-checkpoint-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        for room in ["kitchen", "hall"] {
            try writer.write(BrokerMessage(topic: "espresense/rooms/\(room)/status", payload: Array("online".utf8), receivedAt: start, retained: true))
        }
        func reading(_ minor: Int, _ room: String, _ second: Int) throws {
            let id = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-\(minor)"
            let payload = #"{"id":"\#(id)","mac":"c0112233445\#(minor)","rssi@1m":-59,"rssi":\#(-58 - second % 5),"raw":1.2,"distance":1.2,"var":0.1,"int":100}"#
            try writer.write(BrokerMessage(topic: "espresense/devices/\(id)/\(room)", payload: Array(payload.utf8), receivedAt: start + Double(second) + 0.25 * Double(minor)))
        }
        for second in 0...220 {
            if (30...100).contains(second) { try reading(1, "kitchen", second) }
            if (130...200).contains(second) { try reading(1, "hall", second) }
            if (50...170).contains(second) { try reading(2, "hall", second) }
        }
        return path
    }

    static func fixture(_ name: String) -> String {
        SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/\(name)").path
    }

    /// A venue feed and the replay feeding it, paused: each seek is caught up unpaced, then a snapshot.
    struct Run {
        var engine: VenueReplayEngine
        let control = ReplayControl(paused: true)
        var feed: MonitorFeed
        /// Messages delivered since the last `.rewound`, and that notice.
        var sinceRewound: [Double] = []
        var rewound: SourceNotice?

        init(_ path: String, checkpoints: Bool) throws {
            if checkpoints { control.acceptCheckpoints() }
            engine = try VenueReplayEngineTests.engine(path, control: control)
            let reader = try VenueRecordingReader(path: path)
            feed = MonitorFeed(status: SourceStatus(name: path, state: .paused(speed: 1)))
            feed.startVenue(VenueView(topics: VenueTopics(prefix: reader.prefix)))
        }

        /// Seeks by `delta`, feeds what the replay hands out, and snapshots at the position reached.
        mutating func seek(by delta: Double) -> MonitorSnapshot {
            control.seek(by: delta)
            for event in VenueReplayEngineTests.run(&engine, at: 1000).events {
                switch event {
                case .brokerMessage(let message):
                    feed.feed(message)
                    sinceRewound.append(message.receivedAt - VenueCheckpointTests.start)
                case .notice(let notice):
                    if case .rewound = notice {
                        rewound = notice
                        sinceRewound = []
                    }
                    feed.note(notice)
                default:
                    break
                }
            }
            return feed.snapshot(at: VenueCheckpointTests.start + control.position.seconds)
        }

        /// The log without the seek lines (their wording says where the rebuild started) and the
        /// end's (it counts the messages delivered, those read again included).
        var log: [MonitorEvent] { feed.events.filter { !$0.message.contains("seek back") && !$0.message.contains("end of replay after") } }
    }

    /// Plays forward in steps of `step` seconds to `to`, seeks back by `back`, and then to the end.
    static func compare(_ path: String, step: Double, to: Double, back: Double, resumesAt expected: Double) throws {
        var with = try Run(path, checkpoints: true)
        var without = try Run(path, checkpoints: false)
        for _ in 0..<Int(to / step) {
            #expect(with.seek(by: step) == without.seek(by: step))
        }
        #expect(with.log.count > 2)
        let rebuilt = with.seek(by: -back)
        let fromStart = without.seek(by: -back)
        #expect(rebuilt.rows == fromStart.rows)
        #expect(rebuilt.scanners == fromStart.scanners)
        #expect(with.log == without.log)
        #expect(with.feed.venue?.visits.totals == without.feed.venue?.visits.totals)
        #expect(with.feed.venue?.visits.openVisits == without.feed.venue?.visits.openVisits)
        // What was read again: from the checkpoint, or from the start.
        guard case .rewound(_, _, let checkpoint?) = with.rewound else {
            Issue.record("no checkpoint: \(String(describing: with.rewound))")
            return
        }
        #expect(checkpoint.seconds.rounded(.down) == expected)
        #expect(with.sinceRewound.first.map { $0.rounded(.down) } == expected)
        #expect(without.sinceRewound.first.map { $0.rounded(.down) } == 0)
        _ = with.feed.takeVenueOutbox()
        _ = without.feed.takeVenueOutbox()

        // Played on to the end and finished: the same visits closed, the same published.
        let ended = (with.seek(by: 1000), without.seek(by: 1000))
        #expect(ended.0.rows == ended.1.rows)
        #expect(ended.0.scanners == ended.1.scanners)
        let end = try #require(with.feed.lastPacketTime)
        #expect(with.feed.finishVenue(at: end) == without.feed.finishVenue(at: end))
        let published = with.feed.takeVenueOutbox()
        #expect(!published.isEmpty)
        #expect(published == without.feed.takeVenueOutbox())
        #expect(with.log == without.log)
        #expect(with.feed.venue?.visits.totals == without.feed.venue?.visits.totals)
        #expect(with.feed.venue?.visits.openVisits == 0)
    }

    @Test("Visits across checkpoints: back from 175 s to 140 s resumes at the 120 s checkpoint; rows, log, visits and what is published as from the start")
    func spanning() throws {
        let path = try Self.spanningRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.compare(path, step: 25, to: 175, back: 35, resumesAt: 120)
    }

    @Test("The venue fixtures: back from 85 s to 70 s resumes at the 60 s checkpoint, as from the start", arguments: ["mixed.venue.ndjson", "prefixed.venue.ndjson"])
    func fixtures(name: String) throws {
        try Self.compare(Self.fixture(name), step: 17, to: 85, back: 15, resumesAt: 60)
    }

    /// The hall node's beacon 0-10 s (the node silent from 35 s), an agent whose telemetry every 5 s
    /// says its radio is lost from 40 s, and a node first heard at 30 s.
    static func scannersRecording() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacontop-venue-scanners-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        func write(_ topic: String, _ payload: String, at second: Double, retained: Bool = false) throws {
            try writer.write(BrokerMessage(topic: topic, payload: Array(payload.utf8), receivedAt: start + second, retained: retained))
        }
        try write("espresense/rooms/hall/status", "online", at: 0, retained: true)
        try write("beacontop/scanners/pi-a/status", "online", at: 0, retained: true)
        for second in 0...60 {
            let reading = #"{"id":"\#(id)","rssi@1m":-59,"rssi":-60,"distance":1.2}"#
            if second <= 10 { try write("espresense/devices/\(id)/hall", reading, at: Double(second) + 0.5) }
            if second == 30 { try write("espresense/rooms/late/status", "online", at: 30.25) }
            if second >= 30 { try write("espresense/devices/\(id)/late", reading, at: Double(second) + 0.5) }
            if second % 5 == 0 {
                let radio = second >= 40 ? #""radio":"lost","radioReason":"hci0 removed""# : #""radio":"ok""#
                let telemetry = #"{"scanner":"pi-a","t":\#(start + Double(second)),"uptime":10.0,"advertsPerSecond":0,"beacons":0,"published":0,"buffered":0,"dropped":0,"droppedQoS1":0,\#(radio)}"#
                try write("beacontop/scanners/pi-a/telemetry", telemetry, at: Double(second) + 0.75)
            }
        }
        return path
    }

    @Test("Back past a node's first message, a silence and a lost radio: no scanner called retired, each line once when played again")
    func scannersAcrossASeekBack() throws {
        let path = try Self.scannersRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var run = try Run(path, checkpoints: true)
        func lines() -> [String] { run.log.map(\.message).filter { $0.hasPrefix("scanner ") } }
        let played = ["scanner hall online", "scanner pi-a online", "scanner late online", "scanner hall silent: its readings expire",
                      "scanner pi-a radio lost (hci0 removed): online, hearing nothing"]
        for _ in 0..<10 { _ = run.seek(by: 5) }
        #expect(lines() == played)
        // Back to 20 s: the node first heard at 30 s is not known yet, the hall node not yet silent.
        let back = run.seek(by: -30)
        #expect(back.scanners.map(\.name) == ["hall", "pi-a"])
        #expect(lines() == Array(played.prefix(2)), "as the log stood at 20 s, with no line of the rebuild")
        for _ in 0..<6 { _ = run.seek(by: 5) }
        #expect(lines() == played, "each line once, as played the first time")
    }

    // MARK: - The engine's side: where it resumes

    /// Seconds into the recording of the message each `.checkpoint` notice comes before.
    static func checkpointTimes(_ events: [SourceEvent]) -> [Double] {
        zip(events, events.dropFirst()).compactMap { notice, next in
            guard case .notice(.checkpoint) = notice, case .brokerMessage(let message) = next else { return nil }
            return (message.receivedAt - start).rounded()
        }
    }

    static func engine(_ path: String, options: ReplayOptions = ReplayOptions()) throws -> (VenueReplayEngine, ReplayControl) {
        let control = ReplayControl(paused: true)
        control.acceptCheckpoints()
        return (try VenueReplayEngineTests.engine(path, options: options, control: control), control)
    }

    @Test("Checkpoints before the first message and every 60 s; a seek back reads from the latest at or before the target; appended, the file keeps them")
    func resumes() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 200)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var (engine, control) = try Self.engine(path)
        control.seek(by: 150)
        var events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(Self.checkpointTimes(events) == [0, 60, 120])

        control.seek(by: -20)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 130, resumeFrom: ReplayCheckpoint(id: 3, seconds: 120))))
        #expect(VenueReplayEngineTests.offsets(events) == Array(120..<130).map(Double.init))
        #expect(control.position.seconds == 130)

        // Appended while it plays: the lines before stay where they were.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(Array(#"{"t":\#(Self.start + 300),"topic":"espresense/rooms/kitchen/status","payload":"online"}"#.utf8) + [0x0A]))
        try handle.close()
        control.seek(by: -25)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 105, resumeFrom: ReplayCheckpoint(id: 2, seconds: 60))))
        #expect(VenueReplayEngineTests.offsets(events) == Array(60..<105).map(Double.init))
        // Forward again past 120 s: a new checkpoint there (the one dropped by the seek back).
        control.seek(by: 30)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(Self.checkpointTimes(events) == [120])
        #expect(events.contains(.notice(.checkpoint(source: path, id: 4, dropped: []))))
    }

    @Test("--from: the first checkpoint is before the window's first message, the next a spacing on from --from; a seek back never resumes before the window")
    func window() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 200)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var (engine, control) = try Self.engine(path, options: ReplayOptions(from: 30))
        control.seek(by: 100)
        var events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(Self.checkpointTimes(events) == [30, 90])
        control.seek(by: -5)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 95, resumeFrom: ReplayCheckpoint(id: 2, seconds: 90))))
        #expect(VenueReplayEngineTests.offsets(events) == Array(90..<95).map(Double.init))
        control.seek(by: -100)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 30, resumeFrom: ReplayCheckpoint(id: 1, seconds: 30))))
        #expect(VenueReplayEngineTests.offsets(events).isEmpty)
    }

    @Test("A checkpoint that cannot be trusted is not used: the file replaced under its name, or rewritten in place")
    func untrusted() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var (engine, control) = try Self.engine(path)
        control.seek(by: 90)
        _ = VenueReplayEngineTests.run(&engine, at: 100)

        // The same bytes in another file renamed over it: another inode.
        let replacement = path + ".new"
        try text.write(toFile: replacement, atomically: false, encoding: .utf8)
        #expect(rename(replacement, path) == 0)
        control.seek(by: -10)
        var events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 80, resumeFrom: nil)))
        #expect(VenueReplayEngineTests.offsets(events).first == 0)
        #expect(Self.checkpointTimes(events) == [0, 60])

        // The same file rewritten in place with every message half a second later: the line at the
        // checkpoint's offset is no longer its message.
        let shifted = text.replacingOccurrences(of: ".000000,", with: ".500000,")
        #expect(shifted != text)
        try shifted.write(toFile: path, atomically: false, encoding: .utf8)
        control.seek(by: -10)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 70, resumeFrom: nil)))
        let first = events.lazy.compactMap { if case .brokerMessage(let message) = $0 { message.receivedAt } else { nil } }.first
        #expect(first == Self.start + 0.5)
    }

    @Test("Past 120 checkpoints every other one goes and the spacing doubles; the newest stays usable")
    func thinned() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 7_400)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var (engine, control) = try Self.engine(path)
        control.seek(by: 7_390)
        let events = VenueReplayEngineTests.run(&engine, at: 100).events
        var kept: [Int] = []
        for case .notice(.checkpoint(_, let id, let dropped)) in events {
            kept.append(id)
            kept.removeAll { dropped.contains($0) }
        }
        #expect(Self.checkpointTimes(events) == Array(stride(from: 0.0, through: 7_200, by: 60)) + [7_320])
        #expect(kept == Array(stride(from: 1, through: 121, by: 2)) + [122])
        #expect(kept.count <= VenueReplayEngine.checkpointLimit)
        control.seek(by: -100)
        let back = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(back.first == .notice(.rewound(source: path, target: Self.start + 7_290, resumeFrom: ReplayCheckpoint(id: 121, seconds: 7_200))))
        #expect(VenueReplayEngineTests.offsets(back).count == 90)
    }

    @Test("--loop: a seek back resumes from the current pass's first checkpoint (the view as the pass began), never an earlier pass's")
    func loop() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var (engine, control) = try Self.engine(path, options: ReplayOptions(loop: true))
        // To the end of the first pass (a new pass ends a seek's catch-up), then 30 s into the second.
        control.seek(by: 150)
        var events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(Self.checkpointTimes(events) == [0, 60])
        #expect(events.last == .notice(.checkpoint(source: path, id: 3, dropped: [1, 2])))
        control.seek(by: 30)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(VenueReplayEngineTests.offsets(events) == Array(100..<130).map(Double.init))
        control.seek(by: -20)
        events = VenueReplayEngineTests.run(&engine, at: 100).events
        #expect(events.first == .notice(.rewound(source: path, target: Self.start + 110, resumeFrom: ReplayCheckpoint(id: 3, seconds: 0))))
        #expect(VenueReplayEngineTests.offsets(events) == Array(100..<110).map(Double.init))
    }
}
