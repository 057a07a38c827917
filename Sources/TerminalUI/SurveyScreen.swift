import Monitor
import Ranging
import Survey

/// The `survey` command's screen: a title bar, the floor plan (`SurveyPlanView`) with the cursor,
/// the legend, an info line (cursor, the sample under way or the last one) and the keys. A pure
/// function of the survey state, as every view.
public enum SurveyScreen {
    /// Where everything under the title goes on a screen of `size`: the plan, the legend's lines
    /// under it, the info line (two for news longer than the screen is wide), the keys.
    struct Layout {
        var plan: SurveyPlanView.Area
        var legend: SurveyLegend.Layout
        var info: [String]
        var infoRole: StyleRole
    }

    static func layout(_ state: SurveyState, model: SurveyPlanModel, size: ScreenSize, rule: CoverageRule, charset: Charset) -> Layout {
        let (info, role) = info(state, coverage: model.coverage.last, width: size.columns, charset: charset)
        // The legend takes lines from the plan while it keeps `minimumPlanLines`, always one; news
        // on two lines takes one from the plan (it took the legend's line, and at 40 columns the
        // last sample's description always does).
        let room = max(1, size.lines - 2 - info.count - SurveyLegend.minimumPlanLines)
        let legend = SurveyLegend.layout(SurveyPlanView.legend(charset: charset, rule: rule), width: size.columns, lines: room,
                                         keysCut: keysCut(width: size.columns, charset: charset))
        let plan = SurveyPlanView.Area(x: 0, y: 1, width: size.columns, height: max(0, size.lines - 2 - legend.lines.count - info.count))
        return Layout(plan: plan, legend: legend, info: info, infoRole: role)
    }

    /// Where the plan is drawn (for a mouse click).
    public static func planArea(_ state: SurveyState, size: ScreenSize, rule: CoverageRule, charset: Charset) -> SurveyPlanView.Area {
        layout(state, model: model(state, rule: rule), size: size, rule: rule, charset: charset).plan
    }

    public static func model(_ state: SurveyState, rule: CoverageRule) -> SurveyPlanModel {
        SurveyPlanModel(session: state.session, cursor: state.cursor, rule: rule)
    }

    public static func render(_ state: SurveyState, size: ScreenSize, rule: CoverageRule, charset: Charset = .unicode) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: size.columns, height: size.lines, charset: charset)
        guard size.columns >= 20, size.lines >= 8 else {
            buffer.write("Terminal too small for the plan. q quits.", x: 0, y: 0, role: .warning)
            return buffer
        }
        let separator = charset.separator
        buffer.fill(y: 0, role: .header)
        let count = state.session.samples.count
        let samples = "\(count) sample\(count == 1 ? "" : "s") "
        buffer.write(title(state.session.plan.title, room: size.columns - TitleBar.gap - TerminalText.width(samples, charset: charset), charset: charset), x: 0, y: 0, role: .header)
        buffer.writeRight(samples, end: size.columns, y: 0, role: .header)

        let model = model(state, rule: rule)
        let layout = layout(state, model: model, size: size, rule: rule, charset: charset)
        if state.showsHelp {
            SurveyHelpView.draw(scroll: state.helpScroll, anchor: state.helpAnchor, rule: rule, bottom: size.lines - 1 - layout.info.count, into: &buffer)
            drawInfo(layout, size: size, into: &buffer)
            buffer.write(SurveyHelpView.keys(width: size.columns, charset: charset, separator: separator), x: 0, y: size.lines - 1, role: .muted)
            return buffer
        }
        SurveyPlanView.draw(model, into: &buffer, area: layout.plan)
        SurveyLegend.draw(layout.legend, top: layout.plan.y + layout.plan.height, into: &buffer)
        drawInfo(layout, size: size, into: &buffer)
        buffer.write(keys(width: size.columns, charset: charset, separator: separator), x: 0, y: size.lines - 1, role: .muted)
        return buffer
    }

    static func drawInfo(_ layout: Layout, size: ScreenSize, into buffer: inout ScreenBuffer) {
        for (offset, line) in layout.info.reversed().enumerated() {
            let y = size.lines - 2 - offset
            buffer.fill(y: y, role: .status)
            buffer.write(line, x: 0, y: y, role: layout.infoRole == .plain ? .status : layout.infoRole)
        }
    }

    /// The info line: the cursor, then the sample under way, the news, or the last sample; on two
    /// lines where it is longer than the screen is wide (a write error's reason is at its end).
    static func info(_ state: SurveyState, coverage: SpotCoverage?, width: Int, charset: Charset) -> (lines: [String], role: StyleRole) {
        let separator = charset.separator
        var info = " cursor x \(metres(state.cursor.x)) m, y \(metres(state.cursor.y)) m"
        var role = StyleRole.plain
        if let elapsed = state.sampleElapsed {
            info += separator + "sampling \(CellFormat.fixed(elapsed, decimals: 1)) of \(CellFormat.fixed(state.sampleSeconds, decimals: 0)) s"
            let heard = state.collector?.beaconCount ?? 0
            info += separator + "\(heard) beacon\(heard == 1 ? "" : "s") heard"
            // A key refused while sampling says why.
            if let message = state.message { info += separator + message }
            role = .recording
        } else if state.waitingSpot != nil {
            // Said whatever the source's news is meanwhile (a recording's start, a loss): the Enter
            // was taken, not dropped.
            if let message = state.message, message.hasSuffix("(Esc cancels)") {
                info += separator + message
            } else {
                info += separator + "sample waits for a beacon (Esc cancels)" + (state.message.map { separator + $0 } ?? "")
            }
            role = .recording
        } else if let message = state.message {
            info += separator + message
            role = message.hasPrefix("not saved") ? .warning : .plain
        } else if let last = state.session.samples.last, let coverage {
            info += separator + "sample \(last.index): " + describe(coverage, plan: state.session.plan)
        }
        let lines = TerminalText.width(info, charset: charset) <= width
            ? [info] : Wrap.words(info, width: width - 1, lines: 2, ellipsis: charset.ellipsis, charset: charset).map { " " + $0 }
        return (lines, role)
    }

    /// The title in `room` columns: the venue's title cut as the monitor's title bar cuts it, or
    /// left out. It ran into the count at 40 and 60 columns (`The Little0 samples`).
    static func title(_ venue: String?, room: Int, charset: Charset) -> String {
        // At the 20-column minimum even the program's name ran into the count (`beacontop0 samples`).
        let program = [" beacontop survey", " survey"].first { TerminalText.width($0, charset: charset) <= room } ?? ""
        guard let venue, program == " beacontop survey" else { return program }
        let whole = program + charset.separator + venue
        if TerminalText.width(whole, charset: charset) <= room { return whole }
        let left = room - TerminalText.width(program + charset.separator, charset: charset)
        return left >= TitleBar.minimumTitleColumns ? program + charset.separator + TitleBar.cut(venue, to: left, charset: charset) : program
    }

    /// The key line, shorter forms on narrow screens so `q` always shows. It is the last line, whose
    /// last cell ncurses cannot draw (as `StatusLine`), so it fits in `width - 1`.
    static func keys(width: Int, charset: Charset, separator: String) -> String {
        let forms = keyForms(charset: charset, separator: separator)
        return forms.first { TerminalText.width($0, charset: charset) < width } ?? forms[forms.count - 1]
    }

    /// True where the key line leaves keys out (60 columns and fewer): the legend then points at the
    /// help page, which has them all.
    static func keysCut(width: Int, charset: Charset) -> Bool {
        let whole = keyForms(charset: charset, separator: charset.separator)[0]
        return TerminalText.width(whole, charset: charset) >= width
    }

    private static func keyForms(charset: Charset, separator: String) -> [String] {
        let arrows = charset.isUnicode ? "←↑↓→" : "arrows"
        return [
            " \(arrows) or click: move" + separator + "Enter: sample" + separator + "Esc: cancel" + separator + "q: quit",
            " \(arrows) move" + separator + "Enter sample" + separator + "Esc cancel" + separator + "q quit",
            " Enter sample" + separator + "Esc cancel" + separator + "q quit",
            " Enter sample" + separator + "q quit",
            " Enter" + separator + "q quit",
        ]
    }

    static func describe(_ coverage: SpotCoverage, plan: SurveyPlan) -> String {
        let name = { (id: String) in plan.beacon(id: id)?.name ?? id }
        switch coverage.status {
        case .noCoverage:
            return "no coverage"
        case .ambiguous:
            return "ambiguous: \(coverage.nearest.map(name) ?? "?") or \(coverage.runnerUp.map(name) ?? "?")"
        case .covered:
            guard let strongest = coverage.strongest else { return "covered" }
            return "strongest \(name(strongest.id)) \(CellFormat.fixed(strongest.median, decimals: 0)) dBm"
        }
    }

    static func metres(_ value: Double) -> String { CellFormat.fixed(value, decimals: 1) }
}
