/// One text cell of a CSV file (RFC 4180), safe for names and ids that came from a catalog or the
/// air: what the dwell report, the survey's sample table and the session export write.
///
/// - Quoted when it holds a comma, a quote, CR or LF, with quotes doubled. Checked on Unicode
///   scalars, not Characters: a CR LF pair is one Swift Character, equal to neither "\r" nor "\n".
/// - Control and format characters other than CR and LF (ESC, the bidi overrides) become U+FFFD,
///   so `cat` on the file cannot drive the terminal and a spreadsheet shows what is there.
/// - A cell starting with `=`, `+`, `-`, `@` or CR gets a leading `'`, so a spreadsheet
///   shows it as text instead of running it as a formula (OWASP, "CSV Injection").
public enum CSVField {
    public static func text(_ value: String) -> String {
        var needsQuotes = false
        var clean = true
        for scalar in value.unicodeScalars {
            switch scalar {
            case ",", "\"", "\r", "\n": needsQuotes = true
            default:
                if isUnsafe(scalar) { clean = false }
            }
        }
        var cell = clean ? value : String(String.UnicodeScalarView(value.unicodeScalars.map { isUnsafe($0) ? "\u{FFFD}" : $0 }))
        if let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\r"].contains(first) {
            cell = "'" + cell
        }
        guard needsQuotes else { return cell }
        return "\"" + cell.replacing("\"", with: "\"\"") + "\""
    }

    /// A control or format character other than CR and LF: what `text` replaces (the SVG maps too).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\r" || scalar == "\n" { return false }
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        if scalar.value < 0xA0 { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
