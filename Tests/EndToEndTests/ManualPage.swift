/// The committed manual page (docs/man/beacontop.1, mdoc as swift-argument-parser's generate-manual
/// writes a single page) read the way the tests need it: the root's options are items of the
/// DESCRIPTION's outer list, each subcommand an item `.It Em NAME` of that list with its options in a
/// nested list (`.It Fl -long Ar value`, `.It Fl h , -help`).
struct ManualPage {
    let source: String
    /// Subcommand name -> its long flags, `--help` included.
    private(set) var subcommandFlags: [String: Set<String>] = [:]
    /// The root command's long flags.
    private(set) var rootFlags: Set<String> = []

    init(source: String) {
        self.source = source
        var depth = 0
        var current: String?
        for line in source.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case ".Bl": depth += 1
            case ".El": depth -= 1
            case ".It" where depth == 1 && words.count >= 3 && words[1] == "Em":
                current = words[2]
                subcommandFlags[words[2], default: []] = []
            case ".It" where words.count >= 2 && words[1] == "Fl":
                // `Fl -name` renders as `--name`; the option's value (`Ar ...`) ends its names.
                let names = words.dropFirst(2).prefix(while: { $0 != "Ar" }).filter { $0.hasPrefix("-") }.map { "-" + $0 }
                if depth == 1 {
                    rootFlags.formUnion(names)
                } else if depth == 2, let current {
                    subcommandFlags[current, default: []].formUnion(names)
                }
            default: break
            }
        }
    }

    /// Whether a help text (an abstract or a discussion line) appears as generate-manual writes text
    /// lines: non-ASCII characters dropped, `\` as `\e`, a leading `.` or `'` behind `\&`.
    func containsTextLine(_ text: String) -> Bool {
        var escaped = String(String.UnicodeScalarView(text.unicodeScalars.filter(\.isASCII)))
            .replacingOccurrences(of: "\\", with: "\\e")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return source.contains(escaped)
    }
}
