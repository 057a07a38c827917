import Monitor
import PacketSources
import Synchronization
import Testing
import Venue

/// The monitor's data side on a venue's broker, driven by hand (wall time given, no terminal, no
/// broker): broker messages in through the inbox, the status line's rate named for what it counts,
/// the RSSI history of each row, and every open visit closed when the monitor ends or the
/// recording it replays runs out, each exit at the last time its room heard the beacon.
@Suite struct MonitorVenueSessionTests {
    static let espID = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"

    static func espresense(rssi: Int, at time: Double, node: String = "kitchen") -> SourceEvent {
        let payload = #"{"id":"\#(espID)","mac":"c01122334455","rssi@1m":-59,"rssi":\#(rssi),"raw":1.5,"distance":1.5,"var":0.1,"int":100}"#
        return .brokerMessage(BrokerMessage(topic: "espresense/devices/\(espID)/\(node)", payload: Array(payload.utf8), receivedAt: time))
    }

    /// What the session handed to its broker, in order.
    final class Published: Sendable {
        let messages = Mutex<[VenueOutgoing]>([])
        var all: [VenueOutgoing] { messages.withLock { $0 } }
        func events(_ kind: VisitEvent.Kind) throws -> [VisitEvent] {
            try all.filter { $0.topic.hasPrefix("beacontop/events/\(kind.rawValue)/") }.map { try VisitEvent(json: $0.payload) }
        }
    }

    /// A venue session whose clock is `wall`, fed `seconds` of a beacon in the kitchen, four
    /// messages a second with RSSI cycling -60, -61, -62, -63; returns the last message's time.
    static func session(wall: MonitorSessionTests.Wall, published: Published, seconds: Int = 8) -> (MonitorSession, SourceInbox, Double) {
        let inbox = SourceInbox(now: wall.now)
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        var session = MonitorSession(feed: feed, inbox: inbox)
        session.publish = { message in published.messages.withLock { $0.append(message) } }
        var last = 0.0
        for step in 0..<(seconds * 4) {
            last = wall.now()
            inbox.deliver([espresense(rssi: -60 - step % 4, at: last)], .dropWhenFull)
            if step % 4 == 3 { _ = session.snapshot(now: wall.now()) }
            wall.advance(0.25)
            session.drain()
        }
        return (session, inbox, last)
    }

    @Test("The status line's rate counts broker messages (msg/s), and each row carries its placing scanner's RSSI once a second")
    func rateAndHistory() throws {
        let wall = MonitorSessionTests.Wall()
        let published = Published()
        var (session, _, _) = Self.session(wall: wall, published: published)
        let snapshot = session.snapshot(now: wall.now())
        #expect(snapshot.source.countsMessages)
        #expect(abs(snapshot.source.advertsPerSecond - 4) < 0.5, "\(snapshot.source.advertsPerSecond)")
        let row = try #require(snapshot.rows.first)
        #expect(row.venue?.room == "kitchen")
        // One sample per second of the view's clock, each the kitchen node's latest RSSI then.
        #expect(row.rssiHistory.count >= 7 && row.rssiHistory.count <= 9, "\(row.rssiHistory)")
        #expect(row.rssiHistory.allSatisfy { (-63 ... -60).contains($0) }, "\(row.rssiHistory)")
    }

    @Test("Ending the monitor closes the open visit: exit and visit published (QoS 1) at the last time the kitchen heard the beacon, occupancy 0 at the end")
    func finishAtExit() throws {
        let wall = MonitorSessionTests.Wall()
        let published = Published()
        var (session, _, lastHeard) = Self.session(wall: wall, published: published)
        #expect(try published.events(.enter).count == 1)
        #expect(try published.events(.exit).isEmpty)
        // q pressed 2 s after the last message (still within the readings' 4 s lifetime).
        wall.advance(2)
        #expect(session.finishVenue(now: wall.now()) == 1)
        let exit = try #require(try published.events(.exit).first)
        let visit = try #require(try published.events(.visit).first)
        let enter = try #require(try published.events(.enter).first)
        #expect(exit.room == "kitchen" && abs(exit.time - lastHeard) < 0.001, "exit at \(exit.time), last heard \(lastHeard)")
        #expect(visit.start == enter.time && abs(visit.time - lastHeard) < 0.001)
        let closing = published.all.suffix(3)
        #expect(closing.map(\.topic) == ["beacontop/events/exit/kitchen", "beacontop/events/visit/kitchen", "beacontop/occupancy/kitchen"])
        #expect(closing.allSatisfy { $0.atLeastOnce })
        #expect(String(decoding: closing.last!.payload, as: UTF8.self).contains("\"count\":0"))
        // The event log has the exit; a second end closes nothing more.
        #expect(session.feed.events.contains { $0.kind == .exit && $0.message.contains("left kitchen") })
        #expect(session.finishVenue(now: wall.now() + 1) == 0)
        #expect(try published.events(.exit).count == 1)
    }

    @Test("A recording replayed to its end closes its open visits there, shown in the event log, as replay closes them")
    func finishWhenTheSourceEnds() throws {
        let wall = MonitorSessionTests.Wall()
        let published = Published()
        var (session, inbox, lastHeard) = Self.session(wall: wall, published: published)
        inbox.finish()
        session.drain()
        #expect(session.sourceEnded)
        let exit = try #require(try published.events(.exit).first)
        #expect(abs(exit.time - lastHeard) < 0.001)
        #expect(session.feed.events.contains { $0.kind == .exit && $0.message.contains("left kitchen") })
        // Ticks after the end decide nothing new.
        wall.advance(30)
        _ = session.snapshot(now: wall.now())
        #expect(try published.events(.exit).count == 1 && published.events(.enter).count == 1)
    }

    @Test("A seek back on a venue recording is refused while recording (its messages would be written twice, out of order); forward is not")
    func seekBackRefusedWhileRecording() throws {
        let recorded = MonitorSessionTests.Recorded()
        let recording = RecordingSource(MonitorSessionTests.HandSource()) { _ in MonitorSessionTests.MemoryRecorder(recorded: recorded) }
        let inbox = SourceInbox()
        try recording.start(into: inbox)
        var feed = MonitorFeed(status: SourceStatus(name: "day.venue.ndjson"))
        feed.startVenue(VenueView())
        let control = ReplayControl()
        var session = MonitorSession(feed: feed, inbox: inbox, recording: recording, replay: control, speed: .factor(1))
        session.handle(.seek(seconds: -10))
        #expect(control.takeSeek() == -10)
        try recording.startRecording(to: "copy.venue.ndjson")
        session.handle(.seek(seconds: -10))
        #expect(control.takeSeek() == nil)
        #expect(session.feed.events.last?.message == "seek back: not while recording (r stops it)")
        #expect(session.snapshot(now: 0).source.notice == "seek back: not while recording (r stops it)")
        session.handle(.seek(seconds: 10))
        #expect(control.takeSeek() == 10)
    }

    @Test("Not a venue: nothing to close")
    func notAVenue() {
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox())
        #expect(session.finishVenue(now: 1000) == nil)
    }
}
