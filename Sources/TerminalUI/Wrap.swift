/// Greedy word wrapping for the exhibit description and other prose.
enum Wrap {
    /// At most `lines` lines of at most `width` characters; the last line ends with `ellipsis` when
    /// text was cut. Words longer than a line are split.
    static func words(_ text: String, width: Int, lines: Int, ellipsis: Character) -> [String] {
        guard width > 0, lines > 0 else { return [] }
        var pending = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        pending.reverse()
        var result: [String] = []
        var current = ""
        while let word = pending.popLast() {
            if current.isEmpty {
                if word.count <= width {
                    current = word
                    continue
                }
                current = String(word.prefix(width))
                pending.append(String(word.dropFirst(width)))
            } else if current.count + 1 + word.count <= width {
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
        if !pending.isEmpty || !current.isEmpty, var last = result.popLast() {
            if last.count >= width { last = String(last.prefix(width - 1)) }
            result.append(last + String(ellipsis))
        }
        return result
    }
}
