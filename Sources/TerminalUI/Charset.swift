/// Which characters the terminal can show: full Unicode under a UTF-8 locale, ASCII otherwise (a
/// non-UTF-8 locale would print block elements as mojibake).
public enum Charset: Sendable {
    case unicode, ascii

    /// Decides from the locale's codeset name (`nl_langinfo(CODESET)` after `setlocale`).
    public init(codeset: String) {
        let normalized = codeset.uppercased().filter { $0 != "-" && $0 != "_" }
        self = normalized == "UTF8" ? .unicode : .ascii
    }

    /// Eight bar heights for sparklines and charts (U+2581...U+2588), or an ASCII ramp.
    var levels: [Character] {
        switch self {
        case .unicode: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        case .ascii: ["_", ".", ",", ":", "-", "=", "+", "#"]
        }
    }

    var ellipsis: Character { self == .unicode ? "…" : "~" }
    var separator: String { self == .unicode ? " · " : " | " }
    var rule: Character { self == .unicode ? "─" : "-" }
    var replacement: Character { self == .unicode ? "\u{FFFD}" : "?" }
}
