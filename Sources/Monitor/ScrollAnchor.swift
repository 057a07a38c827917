/// The line at the top of a scrolled screen, by what it shows: which paragraph (an event of the
/// log, a key's summary in the help, a transmitter and its findings, a scanner, a part of the
/// detail pane) and which of its wrapped lines. A line number alone names another line once the
/// text is wrapped to a new width (a resize) or paragraphs come or go above it (a scanner joins,
/// the log drops its oldest events), so the text the reader was at jumped away; `less` keeps it in
/// view, and so does every screen that scrolls.
public struct ScrollAnchor: Sendable, Equatable {
    /// What the paragraph is, in words its screen chooses (an event's time, kind and message, a
    /// scanner's name): what it is found again by.
    public var paragraph: String
    /// Where the paragraph was among the screen's: where to look for it first.
    public var index: Int
    /// Which of the paragraph's wrapped lines.
    public var line: Int

    public init(paragraph: String, index: Int, line: Int) {
        self.paragraph = paragraph
        self.index = index
        self.line = line
    }

    /// The screen's first line: a reader there is at the top, and stays there as paragraphs come.
    public var isTop: Bool { index == 0 && line == 0 }

    /// The anchored paragraph's index among `count` paragraphs named by `name`: at its old index,
    /// else the nearest of the same name (one dropped from the front, or one inserted before it,
    /// moved it); nil when it is gone. Names are asked for lazily, nearest first: the log's 500
    /// are mostly never named.
    public func index(among count: Int, name: (Int) -> String) -> Int? {
        guard count > 0 else { return nil }
        func isIt(_ candidate: Int) -> Bool { (0..<count).contains(candidate) && name(candidate) == paragraph }
        if isIt(index) { return index }
        for distance in 1...max(1, abs(index), abs(count - 1 - index)) {
            if isIt(index - distance) { return index - distance }
            if isIt(index + distance) { return index + distance }
        }
        return nil
    }
}
