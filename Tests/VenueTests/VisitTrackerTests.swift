import Ranging
import Testing
import Venue

@Suite("Visits, occupancy and the venue report")
struct VisitTrackerTests {
    @Test("Enter, move, leave: enter/exit/visit events in order, occupancy follows")
    func events() {
        var tracker = VisitTracker()
        #expect(tracker.apply(PresenceChange(beacon: "b1", from: nil, to: "A", time: 100)) == [VisitEvent(kind: .enter, beacon: "b1", room: "A", time: 100, decided: 100)])
        _ = tracker.apply(PresenceChange(beacon: "b2", from: nil, to: "A", time: 110))
        #expect(tracker.occupancy(of: "A", at: 111) == RoomOccupancy(room: "A", beacons: ["b1", "b2"], time: 111))
        let move = tracker.apply(PresenceChange(beacon: "b1", from: "A", to: "B", time: 160))
        #expect(move == [
            VisitEvent(kind: .exit, beacon: "b1", room: "A", time: 160, decided: 160),
            VisitEvent(kind: .visit, beacon: "b1", room: "A", time: 160, start: 100, decided: 160),
            VisitEvent(kind: .enter, beacon: "b1", room: "B", time: 160, decided: 160),
        ])
        #expect(move[1].dwell == 60)
        #expect(VisitTracker.roomsTouched(by: move) == ["A", "B"])
        #expect(tracker.occupancy(of: "A", at: 161).beacons == ["b2"])
        let leave = tracker.apply(PresenceChange(beacon: "b1", from: "B", to: nil, time: 190))
        #expect(leave.map(\.kind) == [.exit, .visit])
        #expect(tracker.occupancy(of: "B", at: 191).beacons.isEmpty)
        let end = tracker.closeAll(at: 200)
        #expect(end == [VisitEvent(kind: .exit, beacon: "b2", room: "A", time: 200, decided: 200), VisitEvent(kind: .visit, beacon: "b2", room: "A", time: 200, start: 110, decided: 200)])
        #expect(tracker.totals["A"]?.visits == 2 && tracker.totals["A"]?.total == 150 && tracker.totals["A"]?.longest == 90)
        #expect(tracker.totals["B"]?.mean == 30)
    }

    @Test("A change's reading times bound the visits, the decision time goes along as decided; an end before the start is held at the start")
    func readingTimes() {
        var tracker = VisitTracker()
        let enter = tracker.apply(PresenceChange(beacon: "b", from: nil, to: "A", time: 13, firstHeardInTo: 10))
        #expect(enter == [VisitEvent(kind: .enter, beacon: "b", room: "A", time: 10, decided: 13)])
        let move = tracker.apply(PresenceChange(beacon: "b", from: "A", to: "B", time: 74, lastHeardInFrom: 70, firstHeardInTo: 71))
        #expect(move == [
            VisitEvent(kind: .exit, beacon: "b", room: "A", time: 70, decided: 74),
            VisitEvent(kind: .visit, beacon: "b", room: "A", time: 70, start: 10, decided: 74),
            VisitEvent(kind: .enter, beacon: "b", room: "B", time: 71, decided: 74),
        ])
        let leave = tracker.apply(PresenceChange(beacon: "b", from: "B", to: nil, time: 80, lastHeardInFrom: 65))
        #expect(leave.last == VisitEvent(kind: .visit, beacon: "b", room: "B", time: 71, start: 71, decided: 80))
        #expect(tracker.totals["A"]?.total == 60 && tracker.totals["B"]?.total == 0)
    }

    @Test("closeAll ends each visit at its last-heard time, kept within the visit's start and the end")
    func closeAtLastHeard() {
        var tracker = VisitTracker()
        _ = tracker.apply(PresenceChange(beacon: "early", from: nil, to: "A", time: 100))
        _ = tracker.apply(PresenceChange(beacon: "before", from: nil, to: "A", time: 150))
        _ = tracker.apply(PresenceChange(beacon: "unknown", from: nil, to: "B", time: 120))
        _ = tracker.apply(PresenceChange(beacon: "late", from: nil, to: "B", time: 130))
        let heard: [String: Double] = ["early": 170, "before": 149, "late": 999]
        let end = tracker.closeAll(at: 200) { beacon, _ in heard[beacon] }
        let exits = Dictionary(uniqueKeysWithValues: end.filter { $0.kind == .exit }.map { ($0.beacon, $0.time) })
        #expect(exits == ["early": 170, "before": 150, "unknown": 200, "late": 200])
        #expect(tracker.totals["A"]?.total == 70 && tracker.totals["B"]?.total == 150)
        #expect(tracker.openVisits == 0)
    }

    @Test("The report: catalog rooms first (visited or not), foot traffic per clock hour")
    func report() {
        var tracker = VisitTracker()
        let hour = 1_767_225_600.0 // 2026-01-01 00:00 UTC, a whole hour
        for (index, start) in [hour + 10, hour + 1800, hour + 3700].enumerated() {
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: nil, to: "booth-101", time: start))
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: "booth-101", to: nil, time: start + 60))
        }
        _ = tracker.apply(PresenceChange(beacon: "w", from: nil, to: "lobby", time: hour + 5))
        _ = tracker.closeAll(at: hour + 7200)
        let catalog = ExhibitCatalog(title: "Hall B", exhibits: [], rooms: [VenueRoom(id: "booth-101", name: "Northwind"), VenueRoom(id: "booth-102")])
        let report = VenueReport(totals: tracker.totals, catalog: catalog, start: hour, end: hour + 7200)
        #expect(report.rows.map(\.room) == ["booth-101", "booth-102", "lobby"])
        let booth = report.rows[0]
        #expect(booth.visits == 3 && booth.totalDwell == 180 && booth.meanDwell == 60)
        #expect(booth.hourly.map(\.visits) == [2, 1, 0])
        #expect(report.footTrafficPerHour(booth) == 1.5)
        #expect(report.rows[1].visits == 0 && report.rows[1].hourly.map(\.visits) == [0, 0, 0])
        #expect(report.rows[2].longest == 7195)
        let json = String(decoding: report.json(), as: UTF8.self)
        #expect(json.hasPrefix(#"{"title":"Hall B","start":1767225600.0,"end":1767232800.0,"rooms":[{"room":"booth-101","name":"Northwind","visits":3,"totalDwell":180,"meanDwell":60,"longest":60,"visitsPerHour":1.5,"hourly":[{"hour":1767225600,"visits":2}"#))
    }

    @Test("Past 31 days of session the hourly series lists only the hours with visits (a clock set years ahead made millions)")
    func longSessionListsVisitHoursOnly() {
        var tracker = VisitTracker()
        let hour = 1_767_225_600.0
        for start in [hour + 10, hour + 20, hour + 7300] {
            _ = tracker.apply(PresenceChange(beacon: "v\(start)", from: nil, to: "booth-101", time: start))
            _ = tracker.apply(PresenceChange(beacon: "v\(start)", from: "booth-101", to: nil, time: start + 60))
        }
        let catalog = ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "booth-102")])
        let month = VenueReport(totals: tracker.totals, catalog: catalog, start: hour, end: hour + 743 * 3600 + 3599)
        #expect(month.rows.map(\.hourly.count) == [744, 744], "31 days: every hour, zeros included")
        let longer = VenueReport(totals: tracker.totals, catalog: catalog, start: hour, end: hour + 744 * 3600)
        #expect(longer.rows.map(\.room) == ["booth-102", "booth-101"])
        #expect(longer.rows[0].hourly.isEmpty, "no visit, no hour")
        #expect(longer.rows[1].hourly.map(\.hour) == [1_767_225_600, 1_767_232_800])
        #expect(longer.rows[1].hourly.map(\.visits) == [2, 1])
        let decades = VenueReport(totals: tracker.totals, catalog: catalog, start: 0, end: 7_258_118_399)
        #expect(decades.rows[1].hourly.count == 2 && decades.rows[1].visits == 3)
        #expect(String(decoding: decades.json(), as: UTF8.self).contains(#""hourly":[{"hour":1767225600,"visits":2},{"hour":1767232800,"visits":1}]"#))
    }

    @Test("Under an hour of session there is no visits-per-hour rate: 33 visits in 2 minutes are not 990 an hour")
    func shortSessionHasNoRate() {
        var tracker = VisitTracker()
        let start = 1_767_225_600.0
        for index in 0..<33 {
            let t = start + Double(index) * 3
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: nil, to: "booth-101", time: t))
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: "booth-101", to: nil, time: t + 2))
        }
        let short = VenueReport(totals: tracker.totals, catalog: nil, start: start, end: start + 120)
        #expect(short.rows.map(\.visits) == [33])
        #expect(short.footTrafficPerHour(short.rows[0]) == nil)
        #expect(String(decoding: short.json(), as: UTF8.self).contains(#""visits":33,"totalDwell":66,"meanDwell":2,"longest":2,"visitsPerHour":null,"#))
        // From one hour on it is the count over the session's hours.
        let hour = VenueReport(totals: tracker.totals, catalog: nil, start: start, end: start + 3600)
        #expect(hour.footTrafficPerHour(hour.rows[0]) == 33)
        let empty = VenueReport(totals: tracker.totals, catalog: nil, start: start, end: start)
        #expect(empty.footTrafficPerHour(empty.rows[0]) == nil)
    }
}
