import Monitor
import Ranging
import Survey
import Testing
@testable import TerminalUI

/// The survey screen's last three lines (legend, info, keys) at the widths a technician's laptop
/// or a 60x15 terminal gives them: nothing cut mid-word, `q` always shown, news kept whole.
@Suite struct SurveyScreenTests {
    static let plan = SurveyPlan(title: "Hall", beacons: [
        SurveyPlan.Beacon(id: "a", name: "Alpha", position: FloorPosition(x: 1, y: 1)),
        SurveyPlan.Beacon(id: "b", name: "Beta", position: FloorPosition(x: 8, y: 5)),
    ], walls: [[[0, 0], [10, 0], [10, 6], [0, 6], [0, 0]]])

    static func state() -> SurveyState {
        let reading = SpotReading(id: "a", packets: 20, median: -62, low: -64, high: -60, measuredPower: -59, exponent: 2, distance: 1.4)
        let sample = SurveySample(index: 1, spot: FloorPosition(x: 2, y: 1), start: 0, end: 5, readings: [reading])
        return SurveyState(session: SurveySession(plan: plan, created: 0, samples: [sample]), catalog: nil)
    }

    static func bottom(_ state: SurveyState, columns: Int, lines: Int = 15) -> [String] {
        let screen = SurveyScreen.render(state, size: ScreenSize(columns: columns, lines: lines), rule: CoverageRule())
        return screen.text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingSpaces() }
            .suffix(3)
    }

    @Test func at60ColumnsTheLegendKeepsWholeEntriesAndTheKeysKeepQ() {
        #expect(Self.bottom(Self.state(), columns: 60) == [
            " █ -60 dBm or more  ▓ -60 to -70  ▒ -70 to threshold",
            " cursor x 2.0 m, y 1.0 m · sample 1: strongest Alpha -62 dBm",
            " ←↑↓→ move · Enter sample · Esc cancel · q quit",
        ])
        #expect(Self.bottom(Self.state(), columns: 100) == [
            " █ -60 dBm or more  ▓ -60 to -70  ▒ -70 to threshold  ? ambiguous  × no coverage  A beacon",
            " cursor x 2.0 m, y 1.0 m · sample 1: strongest Alpha -62 dBm",
            " ←↑↓→ or click: move · Enter: sample · Esc: cancel · q: quit",
        ])
        #expect(Self.bottom(Self.state(), columns: 30).last == " Enter sample · q quit")
    }

    @Test func newsTooLongForTheLineTakesTheLegendLineAndKeepsItsReason() {
        var state = Self.state()
        state.saveFailed("cannot write: No space left on device")
        let lines = Self.bottom(state, columns: 80)
        #expect(lines == [
            " cursor x 2.0 m, y 1.0 m · not saved: sample 1, cannot write: No space left on",
            " device; take it again once it can be written",
            " ←↑↓→ or click: move · Enter: sample · Esc: cancel · q: quit",
        ])
        #expect(state.session.samples.isEmpty, "the unsaved sample is taken back")
    }

    /// An Enter taken before the first beacon says the sample waits, even once a source notice
    /// (a recording's start) has replaced the words the Enter set: it was refused before, and the
    /// notice left the technician nothing to see.
    @Test func aSampleWaitingForTheFirstBeaconSaysSoUnderASourceNotice() {
        var state = Self.state()
        _ = state.handle(.enter)
        #expect(Self.bottom(state, columns: 120)[1]
            == " cursor x 2.0 m, y 1.0 m · no beacon heard yet: the sample starts with the first (Esc cancels)")
        state.note("recording to hall-b/capture-2.btsnoop")
        #expect(Self.bottom(state, columns: 120)[1]
            == " cursor x 2.0 m, y 1.0 m · sample waits for a beacon (Esc cancels) · recording to hall-b/capture-2.btsnoop")
    }

    @Test func anArrowWhileSamplingSaysWhyTheCursorStays() {
        var state = Self.state()
        _ = state.advance(to: 100)
        _ = state.handle(.enter)
        _ = state.advance(to: 101.5)
        _ = state.handle(.left)
        #expect(Self.bottom(state, columns: 120)[1]
            == " cursor x 2.0 m, y 1.0 m · sampling 1.5 of 5 s · 0 beacons heard · the spot is fixed until the sample ends (Esc cancels)")
    }
}
