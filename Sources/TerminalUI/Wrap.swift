/// Greedy word wrapping for the exhibit description and other prose.
enum Wrap {
    /// At most `lines` lines of at most `width` columns (as `charset` draws them: a CJK character
    /// takes two); the last line ends with `ellipsis` when text was cut. Words longer than a line
    /// are split.
    static func words(_ text: String, width: Int, lines: Int, ellipsis: Character, charset: Charset) -> [String] {
        guard width > 0, lines > 0 else { return [] }
        func columns(_ s: String) -> Int { TerminalText.width(s, charset: charset) }
        var pending = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        pending.reverse()
        var result: [String] = []
        var current = ""
        while let word = pending.popLast() {
            if current.isEmpty {
                if columns(word) <= width {
                    current = word
                    continue
                }
                var (head, rest) = split(word, columns: width, charset: charset)
                // A long id or path breaks after a '-', ':' or '/' in the second half of the line
                // (`8F3A2C61-5B7E-4D19-A0C4-` then `2E6B9F1D7A35:1:10`), not at the edge of the screen.
                if let mark = head.lastIndex(where: { $0 == "-" || $0 == ":" || $0 == "/" }), mark != head.index(before: head.endIndex),
                   2 * head.distance(from: head.startIndex, to: mark) >= head.count {
                    rest = String(head[head.index(after: mark)...]) + rest
                    head = String(head[...mark])
                }
                current = head
                pending.append(rest)
            } else if columns(current) + 1 + columns(word) <= width {
                current += " " + word
                continue
            } else {
                pending.append(word)
            }
            result.append(current)
            current = ""
            if result.count == lines { break }
        }
        if !current.isEmpty && result.count < lines {
            result.append(current)
            current = ""
        }
        if !pending.isEmpty || !current.isEmpty, let last = result.popLast() {
            let head = columns(last) >= width ? split(last, columns: width - 1, charset: charset).head : last
            result.append(head + String(ellipsis))
        }
        return result
    }

    /// The longest head of `word` that fits `columns` (at least one character, so wrapping always
    /// moves on; a double-width one in a 1-column line is then clipped by the buffer) and the rest.
    static func split(_ word: String, columns: Int, charset: Charset) -> (head: String, rest: String) {
        guard columns > 0 else { return ("", word) }
        var used = 0
        var end = word.startIndex
        while end < word.endIndex {
            let w = TerminalText.columns(of: word[end], charset: charset)
            if used + w > columns && end > word.startIndex { break }
            used += w
            end = word.index(after: end)
            if used >= columns { break }
        }
        return (String(word[..<end]), String(word[end...]))
    }
}

extension ScreenBuffer {
    /// `text` wrapped from column `x` to the screen's edge into at most `lines` lines from line `y`
    /// down (the last ending in an ellipsis when text was left out). Returns the lines drawn.
    @discardableResult
    mutating func writeWrapped(_ text: String, x: Int, y: Int, lines: Int, role: StyleRole) -> Int {
        let wrapped = Wrap.words(text, width: width - x - 1, lines: lines, ellipsis: charset.ellipsis, charset: charset)
        for (offset, line) in wrapped.enumerated() { write(line, x: x, y: y + offset, role: role) }
        return wrapped.count
    }
}
