import Monitor
import Ranging
import Survey

/// The `survey` command's screen: a title bar, the floor plan (`SurveyPlanView`) with the cursor,
/// the legend, an info line (cursor, the sample under way or the last one) and the keys. A pure
/// function of the survey state, as every view.
public enum SurveyScreen {
    /// Where the plan is drawn on a screen of `size`: everything but the title and the three lines
    /// under the plan.
    public static func planArea(_ size: ScreenSize) -> SurveyPlanView.Area {
        SurveyPlanView.Area(x: 0, y: 1, width: size.columns, height: max(0, size.lines - 4))
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
        SurveyPlanView.draw(model, into: &buffer, area: planArea(size))

        // Whole legend entries only, as many as fit: a meaning cut mid-word ("? ambi") reads as nonsense.
        var x = 1
        let legendLine = size.lines - 3
        for entry in SurveyPlanView.legend(charset: charset) {
            let meaning = " \(entry.meaning)"
            guard x + 1 + TerminalText.width(meaning, charset: charset) <= size.columns else { break }
            buffer.put(entry.glyph, x: x, y: legendLine, role: entry.role)
            x += 1 + buffer.write(meaning + "  ", x: x + 1, y: legendLine, role: .muted)
        }

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
        } else if let last = state.session.samples.last, let coverage = model.coverage.last {
            info += separator + "sample \(last.index): " + describe(coverage, plan: state.session.plan)
        }
        // News longer than the line (a write error with its path and reason) takes the legend's line
        // too, rather than losing its end, where the reason is.
        let infoLines = TerminalText.width(info, charset: charset) <= size.columns
            ? [info] : Wrap.words(info, width: size.columns - 1, lines: 2, ellipsis: charset.ellipsis, charset: charset).map { " " + $0 }
        for (offset, line) in infoLines.reversed().enumerated() {
            let y = size.lines - 2 - offset
            buffer.fill(y: y, role: .status)
            buffer.write(line, x: 0, y: y, role: role == .plain ? .status : role)
        }
        buffer.write(keys(width: size.columns, charset: charset, separator: separator), x: 0, y: size.lines - 1, role: .muted)
        return buffer
    }

    /// The title in `room` columns: the venue's title cut as the monitor's title bar cuts it, or
    /// left out. It ran into the count at 40 and 60 columns (`The Little0 samples`).
    static func title(_ venue: String?, room: Int, charset: Charset) -> String {
        let program = " beacontop survey"
        guard let venue else { return program }
        let whole = program + charset.separator + venue
        if TerminalText.width(whole, charset: charset) <= room { return whole }
        let left = room - TerminalText.width(program + charset.separator, charset: charset)
        return left >= TitleBar.minimumTitleColumns ? program + charset.separator + TitleBar.cut(venue, to: left, charset: charset) : program
    }

    /// The key line, shorter forms on narrow screens so `q` always shows. It is the last line, whose
    /// last cell ncurses cannot draw (as `StatusLine`), so it fits in `width - 1`.
    static func keys(width: Int, charset: Charset, separator: String) -> String {
        let arrows = charset.isUnicode ? "←↑↓→" : "arrows"
        let forms = [
            " \(arrows) or click: move" + separator + "Enter: sample" + separator + "Esc: cancel" + separator + "q: quit",
            " \(arrows) move" + separator + "Enter sample" + separator + "Esc cancel" + separator + "q quit",
            " Enter sample" + separator + "Esc cancel" + separator + "q quit",
            " Enter sample" + separator + "q quit",
        ]
        return forms.first { TerminalText.width($0, charset: charset) < width } ?? forms[forms.count - 1]
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
