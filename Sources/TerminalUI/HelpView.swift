import Monitor

/// `?`: the key table, drawn from the same `KeyBinding`s the loop dispatches on.
///
/// Every summary is whole, wrapped under itself: in one column where that fits, else in the fewest
/// columns side by side that hold every key, else (a small terminal) in one column that scrolls
/// (`ScrollWindow`). Before, a small terminal cut each summary to 8 columns and left out the keys
/// that did not fit ("12 more: enlarge" at 40x10), so they could not be read at all.
enum HelpView {
    /// Columns of the key labels (`Esc Bksp`), a space included.
    static let keyWidth = 11
    /// The fewest summary columns a column of keys side by side keeps (narrower, each summary
    /// would wrap onto line after line).
    static let minimumSummary = 20

    /// One binding as drawn: its key labels and its summary in lines.
    private struct Entry {
        var keys: String
        var summary: String
        var lines: [String]
    }

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" Keys (Esc or ? returns)", x: 0, y: 1, role: .columnHeader)
        let top = 2
        let bottom = buffer.height - 1
        let available = max(1, bottom - top)
        let widest = max(1, buffer.width / (keyWidth + 1 + minimumSummary))
        for columns in [1] + Array(stride(from: 2, through: widest, by: 1)) {
            let columnWidth = buffer.width / columns
            let entries = self.entries(model.keyBindings, room: columnWidth - keyWidth - 1, charset: buffer.charset)
            // Columns of even length (htop's and less's help read down one column, then the next):
            // the shortest that holds every key in this many columns.
            let shortest = (entries.reduce(0) { $0 + $1.lines.count } + columns - 1) / columns
            guard shortest <= available, let placed = (shortest...available).lazy
                .compactMap({ place(entries, columns: columns, lines: $0) }).first else { continue }
            for (entry, column, line) in placed {
                drawEntry(entry, x: column * columnWidth + 1, y: top + line, into: &buffer)
            }
            // Every key shows: the place read is kept for when the help scrolls again (a resize back).
            buffer.scrollAnchor = model.scrollAnchor
            return
        }
        // Too small for every key side by side: one column, as wide as the screen, that scrolls.
        let entries = self.entries(model.keyBindings, room: buffer.width - keyWidth - 1, charset: buffer.charset)
        let total = entries.reduce(0) { $0 + $1.lines.count }
        var canvas = ScreenBuffer(width: buffer.width, height: total, charset: buffer.charset)
        var y = 0
        for entry in entries {
            drawEntry(entry, x: 1, y: y, into: &canvas)
            y += entry.lines.count
        }
        // Each key's summary a paragraph, named by it: the key being read stays at the top when
        // a resize wraps the summaries anew.
        let paragraphs = ScrollParagraphs(entries.map { ($0.summary, $0.lines.count) })
        ScrollWindow.show(canvas, paragraphs, scroll: model.scroll, anchor: model.scrollAnchor, top: top, bottom: bottom, into: &buffer)
    }

    private static func entries(_ bindings: [KeyBinding], room: Int, charset: Charset) -> [Entry] {
        bindings.map { binding in
            let labels = binding.keys.map { charset.isUnicode ? $0.label : $0.asciiLabel }
            let lines = Wrap.words(binding.summary, width: max(1, room), lines: 8, ellipsis: charset.ellipsis, charset: charset)
            return Entry(keys: labels.joined(separator: " "), summary: binding.summary, lines: lines.isEmpty ? [""] : lines)
        }
    }

    /// Each entry's column and first line, filling column after column and never splitting an entry
    /// across two; nil when they do not all fit.
    private static func place(_ entries: [Entry], columns: Int, lines: Int) -> [(Entry, column: Int, line: Int)]? {
        var placed: [(Entry, column: Int, line: Int)] = []
        var column = 0
        var line = 0
        for entry in entries {
            if line + entry.lines.count > lines {
                column += 1
                line = 0
            }
            guard column < columns, entry.lines.count <= lines else { return nil }
            placed.append((entry, column, line))
            line += entry.lines.count
        }
        return placed
    }

    private static func drawEntry(_ entry: Entry, x: Int, y: Int, into buffer: inout ScreenBuffer) {
        buffer.write(entry.keys, x: x, y: y, role: .nearest, limit: keyWidth - 1)
        for (offset, line) in entry.lines.enumerated() {
            buffer.write(line, x: x + keyWidth, y: y + offset, role: .plain)
        }
    }
}
