import Ranging
import Testing
@testable import Venue

/// A visit's times through the whole view (ESPresense-shaped messages in, events out): it runs from
/// the first reading its entry rests on to the last reading of its room, however it ends, while the
/// events still go out when presence decides (`decided`). docs/venue.md "Visit times".
@Suite("Visit times: first reading to last reading, on every exit path")
struct VisitTimesTests {
    static let espID = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"
    static let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"

    /// A view fed by ESPresense nodes named after their rooms (no catalog): `heard(t)` says which
    /// node hears the beacon at each whole second and how loud (nil: nobody); `alsoAlive` nodes
    /// publish another beacon every second, so they stay alive without hearing this one. Ticks at
    /// every half second, as the owner loop does.
    struct Run {
        var view = VenueView()
        var events: [VisitEvent] = []

        mutating func feed(from start: Int, to end: Int, alsoAlive: [String] = [], heard: (Int) -> [(node: String, rssi: Int)]) {
            for second in start...end {
                let t = Double(second)
                for (node, rssi) in heard(second) {
                    _ = view.receive(topic: "espresense/devices/\(VisitTimesTests.espID)/\(node)", payload: VisitTimesTests.payload(rssi: rssi), at: t)
                }
                for node in alsoAlive {
                    let other = "iBeacon:11111111-2222-3333-4444-555555555555-1-1"
                    _ = view.receive(topic: "espresense/devices/\(other)/\(node)", payload: VisitTimesTests.payload(id: other, rssi: -110), at: t + 0.1)
                }
                _ = view.tick(at: t + 0.5)
                events += view.takeEvents().filter { $0.beacon == VisitTimesTests.beacon }
            }
        }

        mutating func finish(at time: Double) {
            _ = view.finish(at: time)
            events += view.takeEvents().filter { $0.beacon == VisitTimesTests.beacon }
        }

        func visits(in room: String) -> [VisitEvent] { events.filter { $0.kind == .visit && $0.room == room } }
        func event(_ kind: VisitEvent.Kind, in room: String) -> VisitEvent? { events.first { $0.kind == kind && $0.room == room } }
    }

    static func payload(id: String = espID, rssi: Int) -> [UInt8] {
        Array(#"{"id":"\#(id)","mac":"c01122334455","rssi@1m":-59,"rssi":\#(rssi),"raw":1.5,"distance":1.5,"var":0.1,"int":100}"#.utf8)
    }

    /// The kitchen hears the beacon once a second from 10 s to 70 s.
    static func kitchen(_ second: Int) -> [(node: String, rssi: Int)] {
        (10...70).contains(second) ? [("kitchen", -60)] : []
    }

    /// The kitchen's visit is 10 s to 70 s, its enter and exit say so, and each was decided later.
    static func expectKitchenVisit(_ run: Run, path: String) throws {
        let visits = run.visits(in: "kitchen")
        #expect(visits.count == 1, "\(path): \(run.events)")
        let visit = try #require(visits.first)
        #expect(abs(visit.start! - 10) < 1e-9 && abs(visit.time - 70) < 1e-9 && abs(visit.dwell! - 60) < 1e-9,
                "\(path): visit \(visit.start!) to \(visit.time), dwell \(visit.dwell!)")
        let enter = try #require(run.event(.enter, in: "kitchen"))
        let exit = try #require(run.event(.exit, in: "kitchen"))
        #expect(enter.time == visit.start && exit.time == visit.time, "\(path)")
        #expect(enter.decided! > enter.time && enter.decided! <= 14, "\(path): entered \(enter.time), decided \(enter.decided!)")
        #expect(exit.decided! >= exit.time && visit.decided == exit.decided, "\(path)")
        #expect(run.view.report.rows.first { $0.room == "kitchen" }?.totalDwell == visit.dwell, "\(path)")
    }

    @Test("The beacon leaves (its readings expire, the node lives on): 10 to 70, though the exit is decided 4 s later")
    func normalExit() throws {
        var run = Run()
        run.feed(from: 0, to: 90, alsoAlive: ["kitchen"], heard: Self.kitchen)
        try Self.expectKitchenVisit(run, path: "normal exit")
        #expect(run.event(.exit, in: "kitchen")!.decided! > 74)
    }

    @Test("The kitchen's node dies silently (no message at all after 70 s): 10 to 70")
    func silentScanner() throws {
        var run = Run()
        run.feed(from: 0, to: 100, heard: Self.kitchen)
        try Self.expectKitchenVisit(run, path: "silent scanner")
    }

    @Test("The kitchen's node says offline at 70.6 s: 10 to 70, decided at the status")
    func offlineScanner() throws {
        var run = Run()
        run.feed(from: 0, to: 70, heard: Self.kitchen)
        _ = run.view.receive(topic: "espresense/rooms/kitchen/status", payload: Array("offline".utf8), at: 70.6)
        run.events += run.view.takeEvents()
        try Self.expectKitchenVisit(run, path: "offline")
        #expect(run.event(.exit, in: "kitchen")!.decided == 70.6)
    }

    @Test("The view ends while the beacon is still present (2 s after its last reading, or between readings): 10 to 70", arguments: [72.0, 73.9])
    func viewEnds(at end: Double) throws {
        var run = Run()
        run.feed(from: 0, to: 70, heard: Self.kitchen)
        #expect(run.view.visits.openVisits == 1)
        run.finish(at: end)
        try Self.expectKitchenVisit(run, path: "finish at \(end)")
        #expect(run.event(.exit, in: "kitchen")!.decided == end)
    }

    @Test("A move to the hall: the kitchen's visit ends at its last reading (70), the hall's starts at its first (71)")
    func move() throws {
        var run = Run()
        run.feed(from: 0, to: 120, heard: { second in second <= 70 ? Self.kitchen(second) : (second <= 110 ? [("hall", -60)] : []) })
        try Self.expectKitchenVisit(run, path: "move")
        let hall = try #require(run.visits(in: "hall").first)
        #expect(hall.start == 71 && hall.time == 110 && hall.dwell == 39, "hall \(hall.start!) to \(hall.time)")
        #expect(run.event(.enter, in: "hall")!.time == 71 && run.event(.enter, in: "hall")!.decided! > 74)
    }

    @Test("Both rooms hear the beacon across the handover: the move is decided on the hall's lead, the kitchen's visit ends at its last reading before that, the hall's starts there (visits of one beacon never overlap)")
    func overlappingMove() throws {
        var run = Run()
        // The kitchen hears it to 80 s, weaker from 71 s when the hall starts hearing it loud.
        run.feed(from: 0, to: 100, heard: { second in
            var heard: [(node: String, rssi: Int)] = []
            if (10...80).contains(second) { heard.append(("kitchen", second <= 70 ? -60 : -75)) }
            if second >= 71 { heard.append(("hall", -50)) }
            return heard
        })
        run.finish(at: 101)
        let kitchen = try #require(run.visits(in: "kitchen").first)
        let hall = try #require(run.visits(in: "hall").first)
        let decided = try #require(run.event(.enter, in: "hall")?.decided)
        #expect(kitchen.start == 10)
        #expect(kitchen.time == decided.rounded(.down) && kitchen.time < 80, "kitchen ends \(kitchen.time), move decided \(decided)")
        #expect(hall.start == kitchen.time && hall.time == 100, "hall \(hall.start!) to \(hall.time), kitchen ends \(kitchen.time)")
        #expect(run.event(.exit, in: "kitchen")?.decided == decided)
    }

    @Test("Back in the same room after the first visit ended: a second visit from its own first reading")
    func returnVisit() throws {
        var run = Run()
        run.feed(from: 0, to: 130, alsoAlive: ["kitchen"], heard: { second in
            Self.kitchen(second) + ((100...120).contains(second) ? [("kitchen", -60)] : [])
        })
        let visits = run.visits(in: "kitchen")
        #expect(visits.map(\.start) == [10, 100] && visits.map(\.time) == [70, 120], "\(visits)")
        #expect(run.view.report.rows.first?.totalDwell == 80)
    }
}
