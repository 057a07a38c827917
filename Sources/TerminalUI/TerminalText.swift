/// Makes text safe and measurable for the terminal. Every string reaches the screen through
/// `ScreenBuffer.write`, which runs each character through here, so nothing that came from the air
/// (Eddystone URLs, names, ids) can inject an escape sequence.
///
/// Replaced with U+FFFD (or `?` under ASCII): C0 controls including ESC (U+0000–U+001F), DEL (U+007F),
/// C1 controls (U+0080–U+009F, which 8-bit terminals read as CSI and OSC), every format character
/// (general category Cf: the bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069,
/// marks U+200E/U+200F/U+061C, zero-width spaces, and a zero-width joiner anywhere but between
/// two emoji of an emoji sequence, where it is left out), line and paragraph separators
/// (U+2028/U+2029), private-use and unassigned code points, and a combining mark with no base.
/// Under ASCII every non-ASCII character becomes `?`, except the ellipsis, which becomes `~`.
enum TerminalText {
    /// The character to draw for `character` and its width in cells (1 or 2), for a character that
    /// takes one cell (`isOneCell`); `cells(for:)` splits the others (here one of those that does
    /// not take exactly one cell is a replacement).
    @inline(__always)
    static func cell(for character: Character, charset: Charset) -> (Character, width: Int) {
        // Not `asciiValue`: it compares against "\r\n" as a string on every call.
        let scalars = character.unicodeScalars
        let first = scalars.first!
        let single = scalars.index(after: scalars.startIndex) == scalars.endIndex
        if first.value < 0x80 && single {
            return first.value >= 0x20 && first.value < 0x7F ? (character, 1) : (charset.replacement, 1)
        }
        guard charset.isUnicode else { return (character == "…" ? charset.ellipsis : charset.replacement, 1) }
        // The characters the renderer itself draws (separators, ellipsis, rules, blocks, sparklines)
        // and Latin text are known narrow and drawable: skip the Unicode property lookups, which
        // otherwise dominate a 500-beacon frame.
        if single {
            if isKnownNarrow(first.value) { return (character, 1) }
            guard isDrawable(first, first: true), !isZeroWidth(first) else { return (charset.replacement, 1) }
            return (character, isWide(first) ? 2 : 1)
        }
        let split = unicodeCells(character, charset: charset)
        return split.count == 1 ? split[0] : (charset.replacement, 1)
    }

    /// The columns `character` takes once sanitised: the sum of its cells' widths.
    @inline(__always)
    static func columns(of character: Character, charset: Charset) -> Int {
        isOneCell(character, charset: charset)
            ? cell(for: character, charset: charset).width
            : unicodeCells(character, charset: charset).reduce(0) { $0 + $1.width }
    }

    /// True when `character` is drawn in one cell: a single scalar, or (under ASCII) anything.
    @inline(__always)
    static func isOneCell(_ character: Character, charset: Charset) -> Bool {
        let scalars = character.unicodeScalars
        return !charset.isUnicode || scalars.index(after: scalars.startIndex) == scalars.endIndex
    }

    /// The terminal cells `character` takes, each a character to draw and its width (1 or 2), laid
    /// out as ncurses and the terminal lay it out: by code point (wcwidth), not by grapheme. A
    /// spacing scalar starts a cell; nonspacing and enclosing marks and the Hangul vowel and final
    /// jamo join the cell before them (at most 4, ncurses' CCHARW_MAX less the base). A Devanagari
    /// or Tamil vowel sign (a spacing mark) is a cell of its own, as the terminal draws it: measured
    /// as one grapheme, a Hindi, Tamil or Bengali name ran its row off the screen and left its end in
    /// the panel rule after it. The scalars terminals disagree on are left out: a zero-width joiner
    /// between two emoji (tmux draws the joined sequence in 2 cells, ncurses counts every emoji in
    /// it), an emoji modifier after its base (a skin tone) and the variation selectors U+FE0E/FE0F,
    /// so `👩‍🔬` is drawn `👩🔬` in 4 cells and `👍🏽` as `👍`. A grapheme holding anything else that
    /// cannot be drawn is one replacement cell.
    static func cells(for character: Character, charset: Charset) -> [(Character, width: Int)] {
        guard isOneCell(character, charset: charset) else { return unicodeCells(character, charset: charset) }
        return [cell(for: character, charset: charset)]
    }

    private static func unicodeCells(_ character: Character, charset: Charset) -> [(Character, width: Int)] {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        var result: [(Character, width: Int)] = []
        var current = String.UnicodeScalarView()
        var width = 0
        var marks = 0
        func flush() {
            if !current.isEmpty { result.append((Character(String(current)), width)) }
            current = String.UnicodeScalarView()
        }
        var previous: Unicode.Scalar?
        for scalar in scalars {
            defer { previous = scalar }
            if scalar.value == 0x200D {
                // A joiner is part of one glyph only between two emoji; anywhere else terminals
                // disagree on its width and the cells after it shift (a panel rule grew a cell).
                guard let previous, previous.properties.isEmoji, first.properties.isEmojiPresentation,
                      scalar != scalars.last else { return [(charset.replacement, 1)] }
                continue
            }
            if previous != nil && (scalar.value == 0xFE0E || scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)) {
                continue
            }
            guard isDrawable(scalar, first: previous == nil) else { return [(charset.replacement, 1)] }
            if isZeroWidth(scalar) {
                guard previous != nil else { return [(charset.replacement, 1)] }
                if marks < 4 { current.append(scalar) }
                marks += 1
            } else {
                flush()
                current.append(scalar)
                width = isWide(scalar) ? 2 : 1
                marks = 0
            }
        }
        flush()
        return result.isEmpty ? [(charset.replacement, 1)] : result
    }

    /// Scalars that take no cell of their own (glibc's wcwidth 0 among the drawable ones).
    @inline(__always)
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Latin-1 and Latin Extended letters (U+00A1–U+02FF without the soft hyphen U+00AD), general
    /// punctuation U+2010–U+2027 (dashes, quotes, the ellipsis), box drawing, block elements and
    /// geometric shapes (U+2500–U+25FC; U+25FD and U+25FE are wide emoji).
    @inline(__always)
    static func isKnownNarrow(_ value: UInt32) -> Bool {
        (0xA1...0x2FF).contains(value) && value != 0xAD || (0x2010...0x2027).contains(value) || (0x2500...0x25FC).contains(value)
    }

    static func isDrawable(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        switch scalar.properties.generalCategory {
        case .format, .control, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return false
        case .nonspacingMark, .enclosingMark, .spacingMark:
            return !first
        default:
            return true
        }
    }

    /// East Asian Wide/Fullwidth and emoji-presentation characters take two cells (UAX #11), as
    /// glibc's wcwidth says; a regional indicator (half a flag) takes one there.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x1100 { return false }
        if (0x1F1E6...0x1F1FF).contains(v) { return false }
        if scalar.properties.isEmojiPresentation { return true }
        return (0x1100...0x115F).contains(v) || (0x2329...0x232A).contains(v) || (0x2E80...0x303E).contains(v)
            || (0x3041...0x33FF).contains(v) || (0x3400...0x4DFF).contains(v) || (0xA960...0xA97C).contains(v)
            || (0xFE10...0xFE19).contains(v) || (0xFE50...0xFE6B).contains(v) || (0x16FE0...0x16FF1).contains(v)
            || (0x17000...0x18D08).contains(v) || (0x1AFF0...0x1B2FB).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// The sanitised text as it would be drawn (for tests and width measurement).
    static func sanitized(_ text: String, charset: Charset) -> String {
        String(text.flatMap { cells(for: $0, charset: charset).map(\.0) })
    }

    /// Columns `text` takes once sanitised.
    static func width(_ text: String, charset: Charset) -> Int {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        if let ascii, let count = ascii { return count }
        var total = 0
        for character in text { total += columns(of: character, charset: charset) }
        return total
    }
}
