import Survey

/// The survey screen's legend under the plan: whole entries (a meaning cut mid-word, `? ambi`,
/// reads as nonsense) on as many lines as they take, while the plan keeps `minimumPlanLines`; what
/// is still left out is on the help page, and the legend's last line says how to reach it
/// (`h: all marks, keys`). Before, the legend was one line: below 100 columns some marks had no
/// meaning on screen, and at 40 columns none.
enum SurveyLegend {
    /// Where the help page is: shown where a mark or a key is left out, and wherever it fits.
    static let hint = "h: all marks, keys"
    /// The plan's height on the smallest screen (20x8 gives it 4; 40x12, 8): the legend takes no
    /// line from a plan this short, a technician needing the plan more than its key.
    static let minimumPlanLines = 8

    struct Layout: Equatable {
        /// The marks on each legend line, from the first.
        var lines: [[SurveyPlanView.Mark]]
        /// The hint ends the last line.
        var hint: Bool
    }

    /// The legend on up to `lines` lines of `width`; `keysCut` when the key line is one of its
    /// shorter forms.
    static func layout(_ marks: [SurveyPlanView.Mark], width: Int, lines room: Int, keysCut: Bool) -> Layout {
        let all = pack(marks, width: width, lines: .max, reserve: 0)
        if all.count <= room {
            if fits(all[all.count - 1], then: hint, width: width) { return Layout(lines: all, hint: true) }
            if !keysCut { return Layout(lines: all, hint: false) }
            // Keys are left out: the hint on a line of its own, else in the last marks' place.
            if all.count < room { return Layout(lines: all + [[]], hint: true) }
        }
        return Layout(lines: pack(marks, width: width, lines: room, reserve: 2 + columns(hint)), hint: true)
    }

    static func draw(_ layout: Layout, top: Int, into buffer: inout ScreenBuffer) {
        for (offset, marks) in layout.lines.enumerated() {
            var x = 1
            for mark in marks {
                buffer.put(mark.glyph, x: x, y: top + offset, role: mark.role)
                x += 1 + buffer.write(" \(mark.meaning)  ", x: x + 1, y: top + offset, role: .muted)
            }
            if layout.hint && offset == layout.lines.count - 1 {
                buffer.write(hint, x: x, y: top + offset, role: .plain)
            }
        }
    }

    /// Marks in order, whole, on up to `lines` lines; the last keeps `reserve` columns free.
    private static func pack(_ marks: [SurveyPlanView.Mark], width: Int, lines: Int, reserve: Int) -> [[SurveyPlanView.Mark]] {
        var result: [[SurveyPlanView.Mark]] = [[]]
        var x = 1
        for mark in marks {
            let needed = 2 + columns(mark.meaning)
            let spare = result.count == lines ? reserve : 0
            if x + needed + spare > width {
                guard result.count < lines, !result[result.count - 1].isEmpty else { break }
                result.append([])
                x = 1
                guard x + needed + (result.count == lines ? reserve : 0) <= width else { break }
            }
            result[result.count - 1].append(mark)
            x += needed + 2
        }
        // An empty last line is kept where it holds the hint.
        return reserve == 0 && result.count > 1 && result[result.count - 1].isEmpty ? Array(result.dropLast()) : result
    }

    private static func fits(_ line: [SurveyPlanView.Mark], then text: String, width: Int) -> Bool {
        1 + line.reduce(0) { $0 + 2 + columns($1.meaning) + 2 } + columns(text) <= width
    }

    /// Every mark's meaning and the hint are ASCII; the glyphs take one column in every charset.
    private static func columns(_ text: String) -> Int { text.count }
}
