import Monitor
import Ranging
import Survey
import Testing
@testable import TerminalUI

/// The survey screen's last three lines (legend, info, keys) at the widths a technician's laptop
/// or a 60x15 terminal gives them: nothing cut mid-word, `q` always shown, news kept whole, and
/// every mark's meaning on the legend or, where it does not fit, on the help page (`h`).
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

    static func screen(_ state: SurveyState, columns: Int, lines: Int, charset: Charset = .unicode) -> [String] {
        let screen = SurveyScreen.render(state, size: ScreenSize(columns: columns, lines: lines), rule: CoverageRule(), charset: charset)
        return screen.text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingSpaces() }
    }

    static func bottom(_ state: SurveyState, columns: Int, lines: Int = 15, count: Int = 3) -> [String] {
        Array(screen(state, columns: columns, lines: lines).suffix(count))
    }

    @Test func at60ColumnsTheLegendTakesTwoLinesAndTheKeysKeepQ() {
        #expect(Self.bottom(Self.state(), columns: 60, count: 5) == [
            "",
            " █ -60 dBm or more  ▓ -60 to -70  ▒ -70 to -80  ? ambiguous",
            " × no coverage  A beacon  h: all marks, keys",
            " cursor x 2.0 m, y 1.0 m · sample 1: strongest Alpha -62 dBm",
            " ←↑↓→ move · Enter sample · Esc cancel · q quit",
        ])
        #expect(Self.bottom(Self.state(), columns: 100, count: 4) == [
            "",
            " █ -60 dBm or more  ▓ -60 to -70  ▒ -70 to -80  ? ambiguous  × no coverage  A beacon",
            " cursor x 2.0 m, y 1.0 m · sample 1: strongest Alpha -62 dBm",
            " ←↑↓→ or click: move · Enter: sample · Esc: cancel · q: quit",
        ])
        #expect(Self.bottom(Self.state(), columns: 30).last == " Enter sample · q quit")
    }

    /// It took the legend's line, which at 40 columns the last sample's description always did.
    @Test func newsTooLongForTheLineTakesALineOfThePlanAndKeepsItsReason() {
        var state = Self.state()
        state.saveFailed("cannot write: No space left on device")
        let lines = Self.bottom(state, columns: 80, count: 5)
        #expect(lines == [
            " █ -60 dBm or more  ▓ -60 to -70  ▒ -70 to -80  ? ambiguous  × no coverage",
            " A beacon  h: all marks, keys",
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

extension SurveyScreenTests {
    /// Presses `key`, draws, and hands the frame's scroll position to the state, as the loop does.
    static func press(_ key: Key, _ state: inout SurveyState, columns: Int, lines: Int, charset: Charset = .unicode) -> [String] {
        state.screenLines = lines
        _ = state.handle(key)
        let frame = SurveyScreen.render(state, size: ScreenSize(columns: columns, lines: lines), rule: CoverageRule(), charset: charset)
        state.drawn(frame)
        return frame.text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingSpaces() }
    }

    /// The help page from its top to its end, each line once (`j` until it stops moving).
    static func helpPage(_ state: inout SurveyState, columns: Int, lines: Int, charset: Charset = .unicode) -> [String] {
        var page = press(.character("h"), &state, columns: columns, lines: lines, charset: charset)
        var content: [String] = []
        while state.handle(.character("j")) == .redraw {
            content.append(page[2])
            page = press(.resize, &state, columns: columns, lines: lines, charset: charset)
        }
        // The window ends above the info line (two lines below 61 columns).
        return content + page[2..<(page.lastIndex { $0.hasPrefix(" cursor x") } ?? lines - 2)]
    }

    @Test("at 40x12 the legend shows what fits and says h shows the rest; no mark had a meaning on screen")
    func at40x12TheLegendPointsAtTheHelpPage() {
        var state = Self.state()
        let plan = Self.screen(state, columns: 40, lines: 12)
        #expect(plan[7...11] == [
            "           └────────────────┘",
            " █ -60 dBm or more  h: all marks, keys",
            " cursor x 2.0 m, y 1.0 m · sample 1:",
            " strongest Alpha -62 dBm",
            " Enter sample · Esc cancel · q quit",
        ], "\(plan)")
        #expect(plan[1...6].contains { $0.contains("A") } && plan[1...6].contains { $0.contains("B") }, "the plan keeps 7 lines, the news 2: \(plan)")
        let top = Self.press(.character("h"), &state, columns: 40, lines: 12)
        #expect(top[1] == " Marks and keys (h or Esc returns)" && top[2] == " On the plan", "\(top)")
        #expect(top[3...4] == [" █   a sample whose strongest beacon is", "     heard at -60 dBm or more"], "\(top)")
        #expect(top[8] == " ↓ 30 more lines (j/k, PgDn)" && top[9] == plan[9] && top[11] == " j/k scroll · h back · q quit", "\(top)")
        // The arrows scroll the page, not the cursor; Enter takes no sample from it.
        _ = Self.press(.down, &state, columns: 40, lines: 12)
        #expect(state.helpScroll == 1 && state.cursor == FloorPosition(x: 2, y: 1))
        #expect(state.handle(.enter) == .none && state.collector == nil && state.waitingSpot == nil)
        let end = Self.press(.end, &state, columns: 40, lines: 12)
        #expect(end[7...8] == [" q            quit: every sample", "              finished is already saved"], "\(end)")
        // Esc (as h and ?) goes back to the plan, as it was; opened again the page starts at its top.
        #expect(Self.press(.escape, &state, columns: 40, lines: 12) == plan)
        #expect(Self.press(.character("?"), &state, columns: 40, lines: 12) == top)
        #expect(Self.press(.character("h"), &state, columns: 40, lines: 12) == plan)
    }

    @Test("at every size the survey screen draws, each mark's meaning is on the legend or the help page the legend points at")
    func everyMarkIsExplainedAtEverySize() {
        let marks = SurveyPlanView.legend(charset: .unicode)
        for charset in [Charset.unicode, .ascii] {
            var whole = Self.state()
            let tall = Self.helpPage(&whole, columns: 130, lines: 60, charset: charset)
            for columns in stride(from: 20, through: 130, by: 10) {
                for lines in [8, 12, 15, 24, 40] {
                    var state = Self.state()
                    let screen = Self.screen(state, columns: columns, lines: lines, charset: charset)
                    let area = SurveyScreen.planArea(state, size: ScreenSize(columns: columns, lines: lines), rule: CoverageRule(), charset: charset)
                    // Under the plan, up to the info line (on two lines below 60 columns).
                    let info = screen.firstIndex { $0.hasPrefix(" cursor x") } ?? lines - 2
                    let legend = screen[(area.y + area.height)..<info].joined(separator: "\n")
                    let hidden = marks.filter { !legend.contains(" \($0.meaning)") }
                    #expect(hidden.isEmpty || legend.contains(SurveyLegend.hint), "\(columns)x\(lines): \(screen)")
                    // The plan keeps its lines: 4 at 20x8, from 40x12 on 8, less one for news on two lines.
                    #expect(area.height >= min(lines - 4, SurveyLegend.minimumPlanLines) - (lines - 2 - info), "\(columns)x\(lines)")
                    // The help page at this size, scrolled through, is the page a tall screen shows at once,
                    // rewrapped: the same words in the same order.
                    let page = Self.helpPage(&state, columns: columns, lines: lines, charset: charset)
                    #expect(Self.words(page) == Self.words(tall), "\(columns)x\(lines): \(page)")
                }
            }
            let text = Self.words(tall).joined(separator: " ")
            #expect(marks.allSatisfy { text.contains($0.explanation) }, "\(tall)")
            #expect(["click", "Enter space", "Esc", "h ?", "q"].allSatisfy { key in tall.contains { $0.hasPrefix(" " + key + " ") } }, "\(tall)")
        }
    }

    static func words(_ lines: [String]) -> [String] {
        lines.flatMap { $0.split(separator: " ").map(String.init) }
    }
}
