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
