import Foundation
import Monitor
import PacketSources
import Sessions
import Testing
import Venue

/// Seeks on a venue recording end to end through the one data path: the real `VenueReplaySource`
/// on its own thread, the inbox, and the monitor's `MonitorSession` with its venue view. A seek
/// forward feeds what it passes (the visit it crosses is counted), a seek back rebuilds the view
/// (the visit before the target counted once, the one after it gone, nothing left open), and the
/// event log holds each enter and exit once.
@Suite("Seeking a venue recording in the monitor")
struct VenueReplaySeekTests {
    static let start = 1_795_411_724.0

    /// The beacon in the kitchen 0-20 s and again 40-60 s, four messages a second, the node's
    /// retained `online` first; written by the product's recorder.
    static func recording() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacontop-venue-seek-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        var writer = try VenueRecordingWriter(path: path, prefix: "")
        try writer.write(BrokerMessage(topic: "espresense/rooms/kitchen/status", payload: Array("online".utf8), receivedAt: start, retained: true))
        for step in 0..<240 where step < 80 || step >= 160 {
            let id = VenueReplayEngineTests.espID
            let payload = #"{"id":"\#(id)","mac":"c01122334455","rssi@1m":-59,"rssi":\#(-58 - step % 5),"raw":1.2,"distance":1.2,"var":0.1,"int":100}"#
            try writer.write(BrokerMessage(topic: "espresense/devices/\(id)/kitchen", payload: Array(payload.utf8), receivedAt: start + Double(step) / 4))
        }
        return path
    }

    /// Drains until the newest message fed is `time` (the source's thread is delivering it).
    static func drain(_ session: inout MonitorSession, until time: Double) throws {
        let deadline = Date().addingTimeInterval(20)
        while session.feed.lastPacketTime != time {
            guard Date() < deadline else { throw TestTimeout(newest: session.feed.lastPacketTime) }
            Thread.sleep(forTimeInterval: 0.01)
            session.drain()
        }
    }

    struct TestTimeout: Error { var newest: Double? }

    static func count(_ session: MonitorSession, _ text: String) -> Int {
        session.feed.events.filter { $0.message.hasSuffix(text) }.count
    }

    @Test("Forward feeds the crossed visit; back rebuilds the view (one visit, none open, the later enter gone from the log); forward again; the end closes the open visit")
    func seeks() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl(paused: true)
        let source = try VenueReplaySource(path: path, options: ReplayOptions(speed: .factor(1)), control: control)
        let inbox = SourceInbox()
        var feed = MonitorFeed(status: SourceStatus(name: path, state: .replaying(speed: 1)))
        feed.startVenue(VenueView(topics: VenueTopics(prefix: source.prefix)))
        var session = MonitorSession(feed: feed, inbox: inbox, replay: control, speed: .factor(1))
        try source.start(into: inbox)
        defer { source.stop() }

        control.seek(by: 50)
        try Self.drain(&session, until: Self.start + 49.75)
        var snapshot = session.snapshot(now: Date().timeIntervalSince1970)
        #expect(snapshot.source.state == .paused(speed: 1))
        #expect(snapshot.source.replayPosition == 50)
        #expect(session.feed.venue?.visits.totals["kitchen"]?.visits == 1)
        #expect(session.feed.venue?.visits.openVisits == 1)
        #expect(Self.count(session, "in kitchen") == 2 && Self.count(session, "left kitchen") == 1, "\(session.feed.events)")
        #expect(snapshot.rows.first?.venue?.room == "kitchen")

        // Back to 30 s, in the silence: the rebuild's last message is the one at 19.75 s.
        control.seek(by: -20)
        try Self.drain(&session, until: Self.start + 19.75)
        snapshot = session.snapshot(now: Date().timeIntervalSince1970)
        #expect(snapshot.source.replayPosition == 30)
        #expect(session.feed.venue?.visits.totals["kitchen"]?.visits == 1)
        #expect(session.feed.venue?.visits.openVisits == 0)
        #expect(Self.count(session, "in kitchen") == 1 && Self.count(session, "left kitchen") == 1, "\(session.feed.events)")
        // The monitor keeps checkpoints: the one before the first message is the latest before 30 s.
        #expect(session.feed.events.contains { $0.message == "\(path): seek back: the venue view rebuilt from its checkpoint at 0 s" })
        #expect(session.feed.events.map(\.time) == session.feed.events.map(\.time).sorted())
        #expect(snapshot.rows.first?.venue?.room == nil)

        control.seek(by: 20)
        try Self.drain(&session, until: Self.start + 49.75)
        _ = session.snapshot(now: Date().timeIntervalSince1970)
        #expect(session.feed.venue?.visits.totals["kitchen"]?.visits == 1)
        #expect(session.feed.venue?.visits.openVisits == 1)
        #expect(Self.count(session, "in kitchen") == 2 && Self.count(session, "left kitchen") == 1, "\(session.feed.events)")

        control.seek(by: 60)
        let deadline = Date().addingTimeInterval(20)
        while !session.sourceEnded, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            session.drain()
        }
        #expect(session.sourceEnded)
        #expect(session.feed.venue?.visits.totals["kitchen"]?.visits == 2)
        #expect(session.feed.venue?.visits.openVisits == 0)
        #expect(Self.count(session, "in kitchen") == 2 && Self.count(session, "left kitchen") == 2, "\(session.feed.events)")
    }
}
