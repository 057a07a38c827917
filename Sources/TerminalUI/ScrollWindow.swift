import Monitor

/// A screen longer than the terminal (the help at 40x12, a detail pane with health findings, the
/// health view, the scanner list, the event log) is shown through the lines between its heading and
/// the status line, as `less` shows a file: `↑`/`k`, `↓`/`j`, `PgUp`, `PgDn`, `Home` and `End` move
/// it (`MonitorState.scroll`). While lines are left below, the window's last line says how many and
/// which keys bring them; the event log, which opens at its end, says on its first line how many
/// lines are above. Before, what did not fit was cut with no sign it existed.
enum ScrollWindow {
    /// Shows lines `0..<contentLines` of `canvas` (as wide as `buffer`) on lines `top..<bottom` of
    /// `buffer`, from line `scroll` (kept in range) on, and sets `buffer.scrollLimit`.
    static func show(_ canvas: ScreenBuffer, contentLines: Int, scroll: Int, top: Int, bottom: Int, into buffer: inout ScreenBuffer) {
        show(contentLines: contentLines, scroll: scroll, top: top, bottom: bottom, into: &buffer) { line, y, buffer in
            buffer.copyLine(line, of: canvas, to: y)
        }
    }

    /// Shows `canvas` (as wide as `buffer`), laid out as `paragraphs`, as the other `show` does,
    /// from the line `anchor` names where its paragraph is still there, else from `scroll`.
    static func show(_ canvas: ScreenBuffer, _ paragraphs: ScrollParagraphs, scroll: Int, anchor: ScrollAnchor?, top: Int, bottom: Int,
                     into buffer: inout ScreenBuffer) {
        show(paragraphs, scroll: scroll, anchor: anchor, top: top, bottom: bottom, into: &buffer) { line, y, buffer in
            buffer.copyLine(line, of: canvas, to: y)
        }
    }

    /// Shows the lines of `paragraphs` as `show(contentLines:...)` does, from the line `anchor`
    /// names (the first read, under the marker of earlier lines where there is one) where its
    /// paragraph is still there, else from `scroll`; then names the reader's place in
    /// `buffer.scrollAnchor`, for the next frame. So a resize, which wraps the paragraphs anew, or
    /// a paragraph coming or going above, leaves the reader at the same text.
    static func show(_ paragraphs: ScrollParagraphs, scroll: Int, anchor: ScrollAnchor?, top: Int, bottom: Int, markAbove: Bool = false,
                     into buffer: inout ScreenBuffer, draw: (_ line: Int, _ y: Int, _ buffer: inout ScreenBuffer) -> Void) {
        var scroll = scroll
        var kept: ScrollAnchor?
        if let anchor, let (index, line) = paragraphs.find(anchor) {
            // One line above it where the marker of earlier lines goes (none at the top, none on a
            // window too short for markers).
            scroll = markAbove && marksAbove(first: 1, top: top, bottom: bottom) ? max(0, line - 1) : line
            // The place stays the one read even where this frame cannot put it first (the end
            // is nearer than a window; its paragraph has fewer lines now): a resize back shows
            // the very screen the reader left.
            kept = ScrollAnchor(paragraph: anchor.paragraph, index: index, line: anchor.line)
        }
        show(contentLines: paragraphs.total, scroll: scroll, top: top, bottom: bottom, markAbove: markAbove, into: &buffer, draw: draw)
        let first = buffer.scrollTop
        buffer.scrollAnchor = kept ?? paragraphs.anchor(at: first + (markAbove && marksAbove(first: first, top: top, bottom: bottom) ? 1 : 0))
    }

    /// Calls `draw(line, y, &buffer)` for each content line the window shows, from line `scroll`
    /// (kept in range) on, then writes the markers over the first (`markAbove`) and last lines of the
    /// window where lines are left above and below. Sets `buffer.scrollLimit` and `buffer.scrollTop`.
    static func show(contentLines: Int, scroll: Int, top: Int, bottom: Int, markAbove: Bool = false, into buffer: inout ScreenBuffer,
                     draw: (_ line: Int, _ y: Int, _ buffer: inout ScreenBuffer) -> Void) {
        let visible = max(1, bottom - top)
        let limit = max(0, contentLines - visible)
        buffer.scrollLimit = limit
        let first = min(max(0, scroll), limit)
        buffer.scrollTop = first
        for offset in 0..<min(visible, contentLines - first) { draw(first + offset, top + offset, &buffer) }
        if first < limit {
            buffer.fill(y: bottom - 1, role: .plain)
            buffer.write(marker(contentLines - first - visible + 1, charset: buffer.charset), x: 1, y: bottom - 1, role: .muted)
        }
        if markAbove && marksAbove(first: first, top: top, bottom: bottom) {
            buffer.fill(y: top, role: .plain)
            buffer.write(markerAbove(first + 1, charset: buffer.charset), x: 1, y: top, role: .muted)
        }
    }

    /// Whether the marker of lines above covers the window's first line, scrolled to `first`.
    static func marksAbove(first: Int, top: Int, bottom: Int) -> Bool {
        first > 0 && bottom - top > 2
    }

    /// `↓ 6 more lines (j/k, PgDn)`; under ASCII `6 more lines below (j/k, PgDn)`.
    static func marker(_ lines: Int, charset: Charset) -> String {
        let count = lines == 1 ? "1 more line" : "\(lines) more lines"
        return charset.isUnicode ? "↓ \(count) (j/k, PgDn)" : "\(count) below (j/k, PgDn)"
    }

    /// `↑ 12 earlier lines (k/j, PgUp)`; under ASCII `12 earlier lines above (k/j, PgUp)`.
    static func markerAbove(_ lines: Int, charset: Charset) -> String {
        let count = lines == 1 ? "1 earlier line" : "\(lines) earlier lines"
        return charset.isUnicode ? "↑ \(count) (k/j, PgUp)" : "\(count) above (k/j, PgUp)"
    }
}

extension MonitorState {
    /// Hands the frame drawn last over to the state, as the loop does after each draw: how far its
    /// screen scrolls, its top line and what that line shows.
    public mutating func drawn(_ frame: ScreenBuffer) {
        drawn(scrollLimit: frame.scrollLimit, top: frame.scrollTop, anchor: frame.scrollAnchor)
    }
}

extension SurveyState {
    /// Hands the frame drawn last over to the state, as the survey's loop does after each draw.
    public mutating func drawn(_ frame: ScreenBuffer) {
        drawn(scrollLimit: frame.scrollLimit, top: frame.scrollTop, anchor: frame.scrollAnchor)
    }
}
