/// Text from outside (names from the air, a catalog or a script, file names, values quoted back
/// in error messages) made safe for a line of plain output that may land on a terminal: stderr
/// messages, `report`'s text table, `decode` and `scan` text lines, CSV fields. The screen has its
/// own sanitiser (TerminalUI's `TerminalText`, which also measures cells); JSON escapes per RFC 8259.
///
/// Every scalar a terminal could act on, or that changes how the rest of the line is laid out, is
/// written as a visible escape `\u{1B}` instead: C0 controls (ESC, BEL, CR, LF, TAB, ...), DEL,
/// C1 controls (U+0080-U+009F: 8-bit CSI, OSC, NEL), format characters (bidi embeddings,
/// overrides and isolates, directional marks, zero-width spaces and joiners, the BOM) and the
/// line and paragraph separators. Nothing else changes, so ordinary names print as they are.
public enum PrintableText {
    /// True for a scalar that must not reach a terminal raw (see the type's comment).
    @inline(__always)
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `text` for one line of plain output: unsafe scalars as `\u{HEX}`.
    public static func line(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// One RFC 4180 CSV field that prints as one safe line: `line(_:)` first (so CR and LF become
    /// `\u{D}` `\u{A}` and a row can never split), then quoted when it holds a comma or a quote.
    /// Checked by scalar, not by `Character`: CR LF is one Character, equal to neither "\r" nor "\n".
    /// A cell starting with `=`, `+`, `-` or `@` gets a leading `'`, so a spreadsheet shows it as
    /// text instead of running it as a formula (OWASP, "CSV Injection").
    public static func csvField(_ text: String) -> String {
        var safe = line(text)
        if let first = safe.unicodeScalars.first, first == "=" || first == "+" || first == "-" || first == "@" {
            safe = "'" + safe
        }
        guard safe.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" }) else { return safe }
        return "\"" + safe.replacing("\"", with: "\"\"") + "\""
    }
}
