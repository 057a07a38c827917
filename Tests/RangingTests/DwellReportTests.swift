import Testing
@testable import Ranging

@Suite struct DwellReportTests {
    @Test func visitsAndDwellFollowTheNearestSequence() {
        var tracker = DwellTracker()
        let script: [(Double, String?)] = [(0, "A"), (1, "A"), (5, "B"), (6, nil), (8, "A"), (20, "A"), (22, nil)]
        for (time, nearest) in script { tracker.update(nearest: nearest, at: time) }
        let totals = tracker.totals(at: 30)
        #expect(totals["A"] == DwellTracker.Totals(visits: 2, total: 19, longest: 14))
        #expect(totals["B"] == DwellTracker.Totals(visits: 1, total: 1, longest: 1))
        #expect(totals["A"]?.mean == 9.5)
        // A visit in progress is counted up to the report time.
        tracker.update(nearest: "B", at: 30)
        #expect(tracker.totals(at: 45)["B"] == DwellTracker.Totals(visits: 2, total: 16, longest: 15))
    }

    @Test func aShortGapWithNobodyNearestDoesNotSplitAVisit() {
        var tracker = DwellTracker(resumeWithin: 5)
        // A: 0-10, nobody 10-13, A again until 20: one visit of 20 s, the gap included.
        // Then nobody 20-30 (longer than 5 s): the visit ended at 20; A again at 30 is a second visit.
        // Then nobody 32-34 and B: A's visit ends when nobody became nearest (32), B's starts at 34.
        let script: [(Double, String?)] = [(0, "A"), (10, nil), (12, nil), (13, "A"), (20, nil), (25, nil), (30, "A"), (32, nil), (34, "B")]
        for (time, nearest) in script { tracker.update(nearest: nearest, at: time) }
        let totals = tracker.totals(at: 40)
        #expect(totals["A"] == DwellTracker.Totals(visits: 2, total: 22, longest: 20))
        #expect(totals["B"] == DwellTracker.Totals(visits: 1, total: 6, longest: 6))
        // A gap still open at report time counts only up to when nobody became nearest.
        tracker.update(nearest: nil, at: 41)
        #expect(tracker.totals(at: 43)["B"] == DwellTracker.Totals(visits: 1, total: 7, longest: 7))
        // Without the resume window (the default) the same gap is two visits.
        var strict = DwellTracker()
        for (time, nearest) in script.prefix(5) { strict.update(nearest: nearest, at: time) }
        #expect(strict.totals(at: 20)["A"] == DwellTracker.Totals(visits: 2, total: 17, longest: 10))
    }

    static let report = DwellReport(
        totals: ["id-a": DwellTracker.Totals(visits: 2, total: 95, longest: 80), "stray": DwellTracker.Totals(visits: 1, total: 3, longest: 3)],
        catalog: ExhibitCatalog(title: "Hall", exhibits: [
            Exhibit(id: "id-a", name: "Stand, \"A\""),
            Exhibit(id: "id-b", name: "Stand B"),
        ])
    )

    @Test func rowsListCatalogExhibitsFirstEvenUnvisited() {
        #expect(Self.report.rows.map(\.id) == ["id-a", "id-b", "stray"])
        #expect(Self.report.rows[1].visits == 0)
        #expect(Self.report.rows[0].mean == 47.5)
    }

    @Test func textRendering() {
        #expect(DwellReportRenderer.text(Self.report) == """
        Hall
        exhibit  name        visits  total  mean  longest
        id-a     Stand, "A"       2   1:35  0:48     1:20
        id-b     Stand B          0   0:00  0:00     0:00
        stray    stray            1   0:03  0:03     0:03

        """)
    }

    @Test func csvRenderingQuotesPerRFC4180() {
        #expect(DwellReportRenderer.csv(Self.report) ==
            "id,name,visits,total_s,mean_s,longest_s\r\n"
            + "id-a,\"Stand, \"\"A\"\"\",2,95.0,47.5,80.0\r\n"
            + "id-b,Stand B,0,0.0,0.0,0.0\r\n"
            + "stray,stray,1,3.0,3.0,3.0\r\n")
    }

    @Test func jsonRendering() {
        #expect(DwellReportRenderer.json(Self.report) ==
            "{\"title\":\"Hall\",\"exhibits\":["
            + "{\"id\":\"id-a\",\"name\":\"Stand, \\\"A\\\"\",\"visits\":2,\"total\":95,\"mean\":47.5,\"longest\":80},"
            + "{\"id\":\"id-b\",\"name\":\"Stand B\",\"visits\":0,\"total\":0,\"mean\":0,\"longest\":0},"
            + "{\"id\":\"stray\",\"name\":\"stray\",\"visits\":1,\"total\":3,\"mean\":3,\"longest\":3}]}\n")
    }
}
