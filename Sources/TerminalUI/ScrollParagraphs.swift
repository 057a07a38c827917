import Monitor

/// A scrolled screen's lines as paragraphs, each named (an event, a key's summary, a transmitter
/// and its findings, a scanner, a part of the detail pane), so that the line at the top of a frame
/// is reported by what it shows (`ScrollAnchor`) and found again in the next one, however the
/// paragraphs are wrapped then and whichever came or went. Every screen that scrolls lays its
/// lines out through one of these and `ScrollWindow.show(_:scroll:anchor:...)`.
struct ScrollParagraphs {
    /// Each paragraph's first line in the whole content.
    private(set) var starts: [Int] = []
    /// Lines in all.
    private(set) var total = 0
    /// A paragraph's name, asked for only where an anchor is looked for or made.
    private let name: (Int) -> String

    init(name: @escaping (Int) -> String) {
        self.name = name
    }

    /// Named paragraphs of the given numbers of lines, in order.
    init(_ paragraphs: [(name: String, lines: Int)]) {
        self.init { paragraphs[$0].name }
        for paragraph in paragraphs { append(lines: paragraph.lines) }
    }

    /// Named paragraphs one after another, each ending just before the line given: as a screen
    /// that draws them in turn notes where it is after each.
    init(ends: [(name: String, end: Int)]) {
        self.init { ends[$0].name }
        for end in ends { append(lines: end.end - total) }
    }

    /// Adds the next paragraph, `lines` long.
    mutating func append(lines: Int) {
        starts.append(total)
        total += max(0, lines)
    }

    /// The paragraph holding a line: the last whose first line is at or before it.
    func paragraph(holding line: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= line { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Where `anchor`'s paragraph is now and the line it names: the paragraph's line, or its last
    /// where it has fewer now; nil when the paragraph is gone.
    func find(_ anchor: ScrollAnchor) -> (index: Int, line: Int)? {
        guard let index = anchor.index(among: starts.count, name: name) else { return nil }
        let end = index + 1 < starts.count ? starts[index + 1] : total
        return (index, starts[index] + min(max(0, anchor.line), max(0, end - starts[index] - 1)))
    }

    /// What names `line`: its paragraph and which of that paragraph's lines it is.
    func anchor(at line: Int) -> ScrollAnchor? {
        guard !starts.isEmpty, total > 0 else { return nil }
        let line = min(max(0, line), total - 1)
        let index = paragraph(holding: line)
        return ScrollAnchor(paragraph: name(index), index: index, line: line - starts[index])
    }
}
