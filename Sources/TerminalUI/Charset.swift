/// Which characters the terminal can show: full Unicode under a UTF-8 locale, ASCII otherwise (a
/// non-UTF-8 locale would print block elements as mojibake).
public enum Charset: Sendable {
    case unicode, ascii
    /// The Linux console (TERM=linux) under a UTF-8 locale: its fonts (the kernel's VGA font and
    /// every Lat15/Uni2 font console-setup installs) have box drawing, arrows, `…`, `·`, `█`, `░` and
    /// `▒`, but none of the eighth blocks U+2581-2587 nor `▓`, which it would draw as a replacement
    /// glyph: sparklines, charts and shades use ASCII there, everything else Unicode.
    case linuxConsole

    /// Decides from the locale's codeset name (`nl_langinfo(CODESET)` after `setlocale`) and TERM.
    public init(codeset: String, term: String = "") {
        let normalized = codeset.uppercased().filter { $0 != "-" && $0 != "_" }
        if normalized != "UTF8" {
            self = .ascii
        } else {
            self = term == "linux" || term.hasPrefix("linux-") ? .linuxConsole : .unicode
        }
    }

    /// Text beyond ASCII (separators, arrows, box drawing, names) can be drawn.
    var isUnicode: Bool { self != .ascii }

    /// Eight bar heights for sparklines and charts (U+2581...U+2588), or an ASCII ramp.
    var levels: [Character] {
        switch self {
        case .unicode: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        case .ascii, .linuxConsole: ["_", ".", ",", ":", "-", "=", "+", "#"]
        }
    }

    var ellipsis: Character { isUnicode ? "…" : "~" }
    var separator: String { isUnicode ? " · " : " | " }
    var rule: Character { isUnicode ? "─" : "-" }
    var replacement: Character { isUnicode ? "\u{FFFD}" : "?" }
}
