import Sessions
import Testing
import Venue

/// The venue report's text and CSV say "no rate" for a session under an hour rather than an
/// extrapolated visits per hour.
@Suite("Venue report text")
struct VenueReportTextTests {
    static func report(span: Double) -> VenueReport {
        var tracker = VisitTracker()
        let start = 1_767_225_600.0
        for index in 0..<4 {
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: nil, to: "booth-101", time: start + Double(index) * 20))
            _ = tracker.apply(PresenceChange(beacon: "v\(index)", from: "booth-101", to: nil, time: start + Double(index) * 20 + 10))
        }
        return VenueReport(totals: tracker.totals, catalog: nil, start: start, end: start + span)
    }

    @Test("Text: '-' under an hour, the rate from an hour on")
    func text() {
        #expect(VenueReplay.text(Self.report(span: 120)) == """
            room       name       visits  total_s  mean_s  longest_s  visits/h
            booth-101  booth-101       4       40      10         10         -

            """)
        #expect(VenueReplay.text(Self.report(span: 7200)).hasSuffix("booth-101  booth-101       4       40      10         10         2\n"))
    }

    @Test("CSV: an empty visits_per_hour under an hour, the rate from an hour on")
    func csv() {
        #expect(VenueReplay.csv(Self.report(span: 120)) == "room,name,visits,total_s,mean_s,longest_s,visits_per_hour\r\nbooth-101,booth-101,4,40,10,10,\r\n")
        #expect(VenueReplay.csv(Self.report(span: 7200)).hasSuffix("\r\nbooth-101,booth-101,4,40,10,10,2\r\n"))
    }
}
