import Monitor
import Survey

/// `h` (or `?`) on the survey screen: what every mark on the plan means and what every key does,
/// each wrapped under itself, in place of the plan; a page longer than the screen scrolls as the
/// monitor's help does (`ScrollWindow`). The legend line under the plan holds what fits; this page
/// holds it all, at any size the survey screen is drawn at.
enum SurveyHelpView {
    struct Entry {
        var label: String
        var role: StyleRole
        var text: String
    }

    static let heading = " Marks and keys (h or Esc returns)"

    static func sections(rule: CoverageRule, charset: Charset) -> [(title: String, entries: [Entry])] {
        let marks = SurveyPlanView.legend(charset: charset, rule: rule).map { Entry(label: String($0.glyph), role: $0.role, text: $0.explanation) }
        let walls = charset.isUnicode ? "─│" : "-|"
        return [
            ("On the plan", marks + [
                Entry(label: "+", role: .selected, text: "the cursor: the spot a sample is taken at (over a mark, the mark in reverse)"),
                Entry(label: walls, role: .muted, text: "walls, from the catalog's walls"),
            ]),
            ("Keys", [
                Entry(label: charset.isUnicode ? "←↑↓→" : "arrows", role: .nearest, text: "move the cursor half a metre (not while sampling)"),
                Entry(label: "click", role: .nearest, text: "put the cursor on the spot clicked"),
                Entry(label: "Enter space", role: .nearest, text: "take a sample at the cursor: keep still until it is saved"),
                Entry(label: "Esc", role: .nearest, text: "cancel the sample under way"),
                Entry(label: "h ?", role: .nearest, text: "this page (h, ? or Esc returns); ↑↓, j/k, PgUp, PgDn, Home and End scroll it"),
                Entry(label: "q", role: .nearest, text: "quit: every sample finished is already saved"),
            ]),
        ]
    }

    /// Draws the page on lines 1 to `bottom` (exclusive), from the line `anchor` names where there
    /// is one, and sets `buffer.scrollLimit` and `buffer.scrollAnchor`.
    static func draw(scroll: Int, anchor: ScrollAnchor? = nil, rule: CoverageRule, bottom: Int, into buffer: inout ScreenBuffer) {
        let charset = buffer.charset
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(heading, x: 0, y: 1, role: .columnHeader)
        // A section's title, or an entry's line: its label on the first, its text wrapped under itself.
        var lines: [(title: Bool, label: String, role: StyleRole, text: String)] = []
        // A section's title (with the blank line before it) and each entry a paragraph: the entry
        // being read stays at the top when a resize wraps the page anew.
        var paragraphs: [(name: String, end: Int)] = []
        for (index, section) in sections(rule: rule, charset: charset).enumerated() {
            if index > 0 { lines.append((false, "", .plain, "")) }
            lines.append((true, "", .columnHeader, " " + section.title))
            paragraphs.append((section.title, lines.count))
            let labelWidth = section.entries.map { TerminalText.width($0.label, charset: charset) }.max() ?? 0
            // Text beside its label where 16 columns are left for it, else under it (the keys at
            // 20 columns kept 6, and their words broke).
            let inline = buffer.width - labelWidth - 3 >= 16
            let indent = inline ? labelWidth + 2 : 3
            for entry in section.entries {
                let wrapped = Wrap.words(entry.text, width: max(1, buffer.width - indent - 1), lines: 20, ellipsis: charset.ellipsis, charset: charset)
                if !inline { lines.append((false, entry.label, entry.role, "")) }
                for (offset, text) in wrapped.enumerated() {
                    lines.append((false, inline && offset == 0 ? entry.label : "", entry.role, String(repeating: " ", count: indent) + text))
                }
                paragraphs.append((section.title + " " + entry.label, lines.count))
            }
        }
        var canvas = ScreenBuffer(width: buffer.width, height: lines.count, charset: charset)
        for (y, line) in lines.enumerated() {
            if line.title {
                canvas.write(line.text, x: 0, y: y, role: line.role)
                continue
            }
            canvas.write(line.text, x: 1, y: y, role: .plain)
            canvas.write(line.label, x: 1, y: y, role: line.role)
        }
        ScrollWindow.show(canvas, ScrollParagraphs(ends: paragraphs), scroll: scroll, anchor: anchor, top: 2, bottom: bottom, into: &buffer)
    }

    /// The key line under the page, shorter forms on narrow screens (as the plan's key line).
    static func keys(width: Int, charset: Charset, separator: String) -> String {
        let forms = [
            " j/k, PgUp, PgDn: scroll" + separator + "h or Esc: back to the plan" + separator + "q: quit",
            " j/k scroll" + separator + "h back" + separator + "q quit",
            " h back" + separator + "q quit",
        ]
        return forms.first { TerminalText.width($0, charset: charset) < width } ?? forms[forms.count - 1]
    }
}
