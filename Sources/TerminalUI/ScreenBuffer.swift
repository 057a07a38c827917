import Monitor

/// One terminal cell: a character (a whole grapheme cluster) and what it means.
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var role: StyleRole
    /// The right half of a double-width character: drawn by the cell to its left, skipped by the blitter.
    public var isContinuation: Bool

    public init(_ character: Character = " ", role: StyleRole = .plain, isContinuation: Bool = false) {
        self.character = character
        self.role = role
        self.isContinuation = isContinuation
    }
}

/// A frame as a grid of cells (ratatui's Buffer): rendering writes here, tests read it back as text
/// plus roles, and the ncurses blitter diffs two of them. Writes are clipped, never trap.
public struct ScreenBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let charset: Charset
    public private(set) var cells: [Cell]
    /// How many lines the screen drawn runs past the terminal (a help screen or a detail pane too
    /// long for it), so the most a scroll key can move it; 0 when everything shows. The loop hands
    /// it to `MonitorState.scrollLimit`.
    public internal(set) var scrollLimit = 0
    /// The line of it shown at the top (`scrollLimit`'s companion), and what the line read first
    /// shows (`ScrollParagraphs`): the loop hands both to `MonitorState.drawn`.
    public internal(set) var scrollTop = 0
    public internal(set) var scrollAnchor: ScrollAnchor?

    public init(width: Int, height: Int, charset: Charset = .unicode) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.charset = charset
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Writes `text` (sanitised) from column `x` on line `y`, at most `limit` columns; a double-width
    /// character that would straddle the limit becomes a space. Returns the columns written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, role: StyleRole, limit: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let end = min(width, limit.map { x + max(0, $0) } ?? width)
        let base = y * width
        if x >= 0, let written = writePrintableASCII(text, at: base + x, count: end - x, role: role) {
            return written
        }
        var column = x
        /// Puts one cell; false once the limit is reached.
        func put(_ drawn: Character, _ cellWidth: Int) -> Bool {
            if column >= end { return false }
            if column < 0 {
                column += cellWidth
                return true
            }
            if cellWidth == 2 {
                if column + 1 >= end {
                    cells[base + column] = Cell(" ", role: role)
                    column += 1
                    return false
                }
                cells[base + column] = Cell(drawn, role: role)
                cells[base + column + 1] = Cell(" ", role: role, isContinuation: true)
            } else {
                cells[base + column] = Cell(drawn, role: role)
            }
            column += cellWidth
            return true
        }
        characters: for character in text {
            if TerminalText.isOneCell(character, charset: charset) {
                let (drawn, cellWidth) = TerminalText.cell(for: character, charset: charset)
                guard put(drawn, cellWidth) else { break }
            } else {
                for (drawn, cellWidth) in TerminalText.cells(for: character, charset: charset) {
                    guard put(drawn, cellWidth) else { break characters }
                }
            }
        }
        return max(0, column - max(x, 0))
    }

    /// The 95 printable ASCII characters, built once: most cells are plain ASCII, and copying a
    /// prepared `Character` is far cheaper than grapheme-breaking the string (the 500-beacon frame
    /// budget is 2 ms for 12,000 cells).
    private static let printableASCII: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Writes text that is entirely printable ASCII (one cell per byte, nothing to sanitise); returns
    /// nil for anything else, which then takes the general path.
    private mutating func writePrintableASCII(_ text: String, at start: Int, count: Int, role: StyleRole) -> Int? {
        guard count > 0 else { return 0 }
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            let n = min(bytes.count, count)
            cells.withUnsafeMutableBufferPointer { cells in
                for i in 0..<n { cells[start + i] = Cell(Self.printableASCII[Int(bytes[i])], role: role) }
            }
            return n
        } ?? nil
    }

    /// Puts one of the renderer's own narrow glyphs (a block element, a rule) at a cell, without the
    /// sanitiser: only for characters from `Charset`, never for text from outside.
    mutating func put(_ glyph: Character, x: Int, y: Int, role: StyleRole) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        cells[y * width + x] = Cell(glyph, role: role)
    }

    /// Copies line `source` of `other` (as wide as this buffer) to line `y`.
    mutating func copyLine(_ source: Int, of other: ScreenBuffer, to y: Int) {
        guard other.width == width, source >= 0, source < other.height, y >= 0, y < height else { return }
        cells.replaceSubrange(y * width..<(y + 1) * width, with: other.cells[source * width..<(source + 1) * width])
    }

    /// Writes `text` right-aligned so it ends just before column `end`.
    @discardableResult
    public mutating func writeRight(_ text: String, end: Int, y: Int, role: StyleRole) -> Int {
        let w = TerminalText.width(text, charset: charset)
        return write(text, x: end - w, y: y, role: role, limit: w)
    }

    /// Fills columns `x..<x+count` of line `y` with `character`.
    public mutating func fill(_ character: Character = " ", x: Int = 0, y: Int, count: Int? = nil, role: StyleRole) {
        guard y >= 0, y < height else { return }
        let start = max(0, x)
        let end = min(width, count.map { x + $0 } ?? width)
        guard start < end else { return }
        cells.replaceSubrange(y * width + start..<y * width + end, with: repeatElement(Cell(character, role: role), count: end - start))
    }

    /// Changes the role of columns `x..<x+count` on line `y`, keeping the characters.
    public mutating func restyle(x: Int = 0, y: Int, count: Int? = nil, role: StyleRole) {
        guard y >= 0, y < height else { return }
        let start = max(0, x)
        let end = min(width, count.map { x + $0 } ?? width)
        guard start < end else { return }
        for column in start..<end { cells[y * width + column].role = role }
    }

    /// Line `y` as text; continuation cells are skipped so wide characters read naturally.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        for x in 0..<width where !cells[y * width + x].isContinuation { text.append(cells[y * width + x].character) }
        return text
    }

    /// Line `y`'s roles as one code letter per cell (`StyleRole.code`).
    public func roleCodes(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        return String((0..<width).map { cells[y * width + $0].role.code })
    }

    /// The whole screen, one line per row, trailing spaces removed: what a test compares.
    public var text: String {
        (0..<height).map { line($0).trimmingTrailingSpaces() }.joined(separator: "\n")
    }

    /// True when line `y` differs between the two buffers (same size assumed).
    func lineDiffers(_ y: Int, from other: ScreenBuffer) -> Bool {
        let range = y * width..<(y + 1) * width
        return cells[range] != other.cells[range]
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
