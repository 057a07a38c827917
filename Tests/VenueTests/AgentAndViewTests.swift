import BeaconFormats
import HCI
import Ranging
import Testing
@testable import Venue

@Suite("The scanner agent's and the venue view's logic")
struct AgentAndViewTests {
    static func reading(_ identity: BeaconIdentity, rssi: Int = -65, accuracy: Double = 2, stale: Bool = false) -> BeaconReading {
        var reading = VenueMessageTests.reading(rssi: rssi, filtered: Double(rssi), accuracy: accuracy)
        reading.identity = identity
        reading.id = identity.description
        reading.isStale = stale
        reading.exhibit = nil
        return reading
    }

    /// A tick at `time` whose unstale beacons had a packet at `time` (the agent publishes a beacon
    /// only on packets newer than its last message's).
    static func heard(at time: Double, _ beacons: [BeaconReading]) -> RangingSnapshot {
        RangingSnapshot(time: time, beacons: beacons.map { reading in
            var reading = reading
            if !reading.isStale { reading.lastSeen = time }
            return reading
        }, nearest: nil, events: [])
    }

    static let ibeacon = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2)

    @Test("The agent publishes both formats per beacon once a second, beacontop's only for beacons ESPresense cannot name, nothing for stale ones")
    func agentMessages() {
        var agent = ScannerAgent(scanner: "pi-1", topics: VenueTopics(prefix: "v"), startedAt: 0)
        var topics: [String] = []
        for tick in 0..<30 {
            let snapshot = Self.heard(at: Double(tick) / 10, [
                Self.reading(Self.ibeacon), Self.reading(.eddystoneURL("https://example.com")), Self.reading(.iBeacon(uuid: UUIDBytes(high: 1, low: 2), major: 0, minor: 0), stale: true),
            ])
            topics += agent.messages(for: snapshot).map(\.topic)
        }
        #expect(topics.filter { $0 == "v/espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-1-2/pi-1" }.count == 3)
        #expect(topics.filter { $0 == "v/beacontop/scanners/pi-1/readings" }.count == 6)
        #expect(topics.count == 9)
        #expect(agent.birth == VenueOutgoing(topic: "v/beacontop/scanners/pi-1/status", payload: Array("online".utf8), atLeastOnce: true, retain: true))
        #expect(agent.will.payload == Array("offline".utf8) && agent.will.retain)
    }

    @Test("Telemetry at the start and every 10 s, with the client's counts")
    func telemetry() throws {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 100)
        // At once: it replaces, retained, what an earlier run under the name left on the broker.
        let first = agent.telemetry(at: 100, advertsPerSecond: 0, beacons: 0, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0)
        #expect(try first.map { try ScannerTelemetry(json: $0.payload, scanner: "pi-1").uptime } == 0)
        let early = agent.telemetry(at: 105, advertsPerSecond: 1, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0)
        #expect(early == nil)
        let report = agent.telemetry(at: 110.5, advertsPerSecond: 40, beacons: 3, published: 99, buffered: 2, dropped: 7, droppedQoS1: 1)
        let due = try #require(report)
        #expect(due.topic == "beacontop/scanners/pi-1/telemetry" && !due.atLeastOnce && due.retain)
        var expected = ScannerTelemetry(scanner: "pi-1", time: 110.5, uptime: 10.5, advertsPerSecond: 40, beacons: 3, published: 99, buffered: 2, dropped: 7, droppedQoS1: 1)
        expected.radio = .ok
        #expect(try ScannerTelemetry(json: due.payload, scanner: "pi-1") == expected)
        let between = agent.telemetry(at: 115, advertsPerSecond: 1, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0)
        let next = agent.telemetry(at: 120, advertsPerSecond: 1, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0)
        #expect(between == nil && next != nil)
    }

    @Test("A radio lost or back is telemetry at once (forced, off the 10 s schedule), said once per change; the view's registry keeps it")
    func radioState() throws {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 100)
        let unchanged = agent.setRadio(.ok)
        let lost = agent.setRadio(.lost(reason: "the other end closed the connection"))
        let again = agent.setRadio(.lost(reason: "the other end closed the connection"))
        #expect(!unchanged && lost && !again, "a change is said once")
        let forced = agent.telemetry(at: 103, advertsPerSecond: 0, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0, force: true)
        let scheduled = agent.telemetry(at: 110, advertsPerSecond: 0, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0)
        #expect(scheduled != nil, "the schedule goes on")
        let lostTelemetry = try #require(forced)
        var view = VenueView()
        // As a view started later gets it: retained (it is taken, unlike a retained reading).
        _ = view.receive(topic: lostTelemetry.topic, payload: lostTelemetry.payload, at: 103.01, retained: true)
        #expect(view.presence.scanners.scanners["pi-1"]?.radio == .lost(reason: "the other end closed the connection"))
        let backAgain = agent.setRadio(.ok)
        let backTelemetry = agent.telemetry(at: 111, advertsPerSecond: 0, beacons: 1, published: 1, buffered: 0, dropped: 0, droppedQoS1: 0, force: true)
        #expect(backAgain)
        let back = try #require(backTelemetry)
        _ = view.receive(topic: back.topic, payload: back.payload, at: 111.01)
        #expect(view.presence.scanners.scanners["pi-1"]?.radio == .ok)
        // A reason fit for a view: no control characters, under 200 bytes.
        let long = agent.setRadio(.lost(reason: "a\u{1B}[2J" + String(repeating: "é", count: 300)))
        #expect(long)
        let reason = try #require(agent.radio.lostReason)
        #expect(reason.hasPrefix("a [2J") && reason.hasSuffix("…") && reason.utf8.count <= 200, "\(reason)")
    }

    @Test("A reading expires for the buffer when its beacon's last packet is a view's 4 s old")
    func readingsExpire() {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 0)
        var reading = Self.reading(Self.ibeacon)
        reading.lastSeen = 9.5
        let messages = agent.messages(for: RangingSnapshot(time: 10, beacons: [reading], nearest: nil, events: []))
        #expect(messages.count == 2 && messages.allSatisfy { $0.expiresAfter == 3.5 })
        #expect(agent.birth.expiresAfter == nil && agent.will.expiresAfter == nil)
    }

    @Test("A beacon with no packet since its last message gets no new one (ranging keeps it unstale 5 s, and a view took each repeat as heard now)")
    func noRepeatsWithoutAPacket() {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 0)
        var reading = Self.reading(Self.ibeacon)
        var counts: [Int] = []
        for (tick, lastSeen) in [(10.0, 9.9), (11, 9.9), (12, 9.9), (13, 12.95), (14, 12.95)] {
            reading.lastSeen = lastSeen
            counts.append(agent.messages(for: RangingSnapshot(time: tick, beacons: [reading], nearest: nil, events: [])).count)
        }
        #expect(counts == [2, 0, 0, 2, 0])
    }

    @Test("The view turns an agent's messages into an enter event and retained occupancy, then exit and visit at the end; the report counts it")
    func view() throws {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 0)
        var view = VenueView(catalog: ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "hall")], scanners: [VenueScanner(id: "pi-1", room: "hall")]))
        var published: [VenueOutgoing] = []
        for tick in 0..<60 {
            let time = 1000 + Double(tick) / 10
            for message in agent.messages(for: Self.heard(at: time, [Self.reading(Self.ibeacon)])) {
                published += view.receive(topic: message.topic, payload: message.payload, at: time + 0.01)
            }
            published += view.tick(at: time + 0.02)
        }
        let enter = try #require(published.first)
        #expect(enter.topic == "beacontop/events/enter/hall" && enter.atLeastOnce && !enter.retain)
        #expect(try VisitEvent(json: enter.payload).kind == .enter)
        #expect(published.count == 2)
        #expect(published[1].topic == "beacontop/occupancy/hall" && published[1].retain)
        let end = view.finish(at: 1010)
        #expect(end.map(\.topic) == ["beacontop/events/exit/hall", "beacontop/events/visit/hall", "beacontop/occupancy/hall"])
        let visit = try VisitEvent(json: end[1].payload)
        #expect(visit.start == (try VisitEvent(json: enter.payload).time))
        #expect(view.report.rows.map(\.visits) == [1])
        #expect(view.report.start == 1000.01 && view.report.end == 1010)
    }

    @Test("Every room the view knows gets its retained occupancy once: with its first event, else 10 s after the view learnt it (so a dead view's stale count is replaced), else at finish")
    func roomsAnnounced() throws {
        var view = VenueView(catalog: ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "hall"), VenueRoom(id: "lab")],
                                                     scanners: [VenueScanner(id: "pi-1", room: "hall")]))
        func occupancies(_ out: [VenueOutgoing]) -> [String] {
            out.filter { $0.topic.hasPrefix("beacontop/occupancy/") }.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self).contains("\"count\":0") ? 0 : 1)" }
        }
        // An ESPresense node's retained status: the kitchen is known from 1000 s on, as are the catalog's rooms.
        #expect(view.receive(topic: "espresense/rooms/kitchen/status", payload: Array("online".utf8), at: 1000).isEmpty)
        var published: [VenueOutgoing] = []
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 0)
        for tick in 0..<99 {
            let time = 1000 + Double(tick) / 10
            for message in agent.messages(for: Self.heard(at: time, [Self.reading(Self.ibeacon)])) {
                published += view.receive(topic: message.topic, payload: message.payload, at: time + 0.01)
            }
            published += view.tick(at: time + 0.02)
        }
        // Before the delay: only the hall, with its enter (a visitor there is not first shown as gone).
        #expect(occupancies(published) == ["beacontop/occupancy/hall 1"])
        let due = view.tick(at: 1010)
        #expect(occupancies(due) == ["beacontop/occupancy/kitchen 0", "beacontop/occupancy/lab 0"])
        #expect(due.allSatisfy { $0.retain && $0.atLeastOnce })
        #expect(view.tick(at: 1011).isEmpty, "each room once")
        // A scanner first heard later: its room is announced by finish if the view ends first.
        _ = view.receive(topic: "beacontop/scanners/pi-9/status", payload: Array("online".utf8), at: 1012)
        #expect(occupancies(view.finish(at: 1013)) == ["beacontop/occupancy/hall 0", "beacontop/occupancy/pi-9 0"])
    }

    @Test("finish closes a visit at the last time a scanner of its room heard the beacon, not at the session's end, and opens nothing after")
    func finishAtLastHeard() throws {
        var agent = ScannerAgent(scanner: "pi-1", startedAt: 0)
        var view = VenueView(catalog: ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "hall")], scanners: [VenueScanner(id: "pi-1", room: "hall")]))
        var lastHeard: Double?
        for tick in 0..<60 {
            let time = 1000 + Double(tick) / 10
            for message in agent.messages(for: Self.heard(at: time, [Self.reading(Self.ibeacon)])) {
                _ = view.receive(topic: message.topic, payload: message.payload, at: time + 0.01)
                lastHeard = time + 0.01
            }
            _ = view.tick(at: time + 0.02)
        }
        let heard = try #require(lastHeard)
        // Stopped 2 s after the last reading (within its 4 s lifetime, so still present).
        _ = view.tick(at: heard + 2)
        #expect(view.visits.openVisits == 1)
        let end = view.finish(at: heard + 2)
        #expect(end.map(\.topic) == ["beacontop/events/exit/hall", "beacontop/events/visit/hall", "beacontop/occupancy/hall"])
        let events = view.takeEvents()
        let exit = try #require(events.first { $0.kind == .exit })
        let visit = try #require(events.first { $0.kind == .visit })
        #expect(exit.time == heard)
        #expect(visit.time == heard && visit.dwell == heard - visit.start!)
        #expect(String(decoding: end[2].payload, as: UTF8.self).contains("\"count\":0"))
        #expect(view.report.rows.first?.totalDwell == heard - visit.start!)
        // Finished: a second finish, later messages and ticks decide nothing.
        #expect(view.finish(at: heard + 3).isEmpty)
        for message in agent.messages(for: Self.heard(at: heard + 5, [Self.reading(Self.ibeacon)])) {
            #expect(view.receive(topic: message.topic, payload: message.payload, at: heard + 5).isEmpty)
        }
        #expect(view.tick(at: heard + 20).isEmpty)
        #expect(view.visits.openVisits == 0)
    }
}
