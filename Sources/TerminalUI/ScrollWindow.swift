/// A screen longer than the terminal (the help at 40x12, a detail pane with health findings) is
/// drawn whole on a canvas of its own and shown through the lines between the title and the status
/// line, as `less` shows a file: `↑`/`k`, `↓`/`j`, `PgUp`, `PgDn`, `Home` and `End` move it
/// (`MonitorState.scroll`). While lines are left below, the window's last line says how many and
/// which keys bring them: before, what did not fit was cut with no sign it existed.
enum ScrollWindow {
    /// Shows lines `0..<contentLines` of `canvas` (as wide as `buffer`) on lines `top..<bottom` of
    /// `buffer`, from line `scroll` (kept in range) on, and sets `buffer.scrollLimit`.
    static func show(_ canvas: ScreenBuffer, contentLines: Int, scroll: Int, top: Int, bottom: Int, into buffer: inout ScreenBuffer) {
        let visible = max(1, bottom - top)
        let limit = max(0, contentLines - visible)
        buffer.scrollLimit = limit
        let first = min(max(0, scroll), limit)
        let cut = first < limit
        let shown = min(cut ? visible - 1 : visible, contentLines - first)
        for offset in 0..<max(0, shown) { buffer.copyLine(first + offset, of: canvas, to: top + offset) }
        if cut {
            buffer.write(marker(contentLines - first - shown, charset: buffer.charset), x: 1, y: bottom - 1, role: .muted)
        }
    }

    /// `↓ 6 more lines (j/k, PgDn)`; under ASCII `6 more lines below (j/k, PgDn)`.
    static func marker(_ lines: Int, charset: Charset) -> String {
        let count = lines == 1 ? "1 more line" : "\(lines) more lines"
        return charset.isUnicode ? "↓ \(count) (j/k, PgDn)" : "\(count) below (j/k, PgDn)"
    }
}
