/// Makes text safe and measurable for the terminal. Every string reaches the screen through
/// `ScreenBuffer.write`, which runs each character through here, so nothing that came from the air
/// (Eddystone URLs, names, ids) can inject an escape sequence.
///
/// Replaced with U+FFFD (or `?` under ASCII): C0 controls including ESC (U+0000–U+001F), DEL (U+007F),
/// C1 controls (U+0080–U+009F, which 8-bit terminals read as CSI and OSC), every format character
/// (general category Cf: the bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069,
/// marks U+200E/U+200F/U+061C, zero-width spaces, and a zero-width joiner anywhere but between
/// two emoji of an emoji sequence), line and paragraph separators
/// (U+2028/U+2029), private-use and unassigned code points, and a combining mark with no base.
/// Under ASCII every non-ASCII character becomes `?`, except the ellipsis, which becomes `~`.
enum TerminalText {
    /// The character to draw for `character` and its width in cells (1 or 2).
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
        if single && isKnownNarrow(first.value) { return (character, 1) }
        var width = 1
        var previous: Unicode.Scalar?
        for scalar in scalars {
            if scalar.value == 0x200D {
                // A joiner is part of one glyph only between two emoji; anywhere else terminals
                // disagree on its width and the cells after it shift (a panel rule grew a cell).
                guard let previous, previous.properties.isEmoji, first.properties.isEmojiPresentation,
                      scalar != scalars.last else { return (charset.replacement, 1) }
            } else if !isDrawable(scalar, first: previous == nil) {
                return (charset.replacement, 1)
            }
            if previous == nil && isWide(scalar) { width = 2 }
            previous = scalar
        }
        return (character, width)
    }

    /// Latin-1 and Latin Extended letters (U+00A1–U+02FF without the soft hyphen U+00AD), general
    /// punctuation U+2010–U+2027 (dashes, quotes, the ellipsis), box drawing, block elements and
    /// geometric shapes (U+2500–U+25FF).
    @inline(__always)
    static func isKnownNarrow(_ value: UInt32) -> Bool {
        (0xA1...0x2FF).contains(value) && value != 0xAD || (0x2010...0x2027).contains(value) || (0x2500...0x25FF).contains(value)
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

    /// East Asian Wide/Fullwidth and emoji-presentation characters take two cells (UAX #11).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x1100 { return false }
        if scalar.properties.isEmojiPresentation { return true }
        return (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// The sanitised text as it would be drawn (for tests and width measurement).
    static func sanitized(_ text: String, charset: Charset) -> String {
        String(text.map { cell(for: $0, charset: charset).0 })
    }

    /// Columns `text` takes once sanitised.
    static func width(_ text: String, charset: Charset) -> Int {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        if let ascii, let count = ascii { return count }
        var total = 0
        for character in text { total += cell(for: character, charset: charset).width }
        return total
    }
}
