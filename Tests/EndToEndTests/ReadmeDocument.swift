import Foundation

/// README.md read the way the documentation test needs it. The README keeps two conventions so this
/// stays a few lines of parsing, not a Markdown parser:
/// - each command has a section headed `### beacontop NAME`; every `--flag` written anywhere in that
///   section (usage lines, the flag table, prose) must be one of that command's flags;
/// - the monitor's keys are a table under a heading `Keys`; its first column names each key in
///   backticks, as the help screen labels it (`Key.label`).
struct ReadmeDocument {
    let text: String

    init(contentsOf url: URL) throws {
        text = try String(contentsOf: url, encoding: .utf8)
    }

    init(text: String) { self.text = text }

    /// A heading line: its level (number of `#`) and its title.
    private struct Heading {
        var line: Int
        var level: Int
        var title: String
    }

    private var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// Lines inside fenced code blocks are not headings (a shell comment starts with `#` too).
    private var headings: [Heading] {
        var result: [Heading] = []
        var inFence = false
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let level = line.prefix(while: { $0 == "#" }).count
            let title = line.dropFirst(level).trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty else { continue }
            result.append(Heading(line: index, level: level, title: title))
        }
        return result
    }

    /// The lines under a heading, up to the next heading of the same or a higher level.
    private func body(of heading: Heading, in all: [Heading]) -> [Substring] {
        let end = all.first(where: { $0.line > heading.line && $0.level <= heading.level })?.line ?? lines.count
        return Array(lines[(heading.line + 1)..<end])
    }

    /// Command name -> the text of its `### beacontop NAME` section.
    var commandSections: [String: String] {
        let all = headings
        var sections: [String: String] = [:]
        for heading in all where heading.level == 3 {
            let words = heading.title.replacingOccurrences(of: "`", with: "").split(separator: " ")
            guard words.count == 2, words[0] == "beacontop" else { continue }
            sections[String(words[1])] = body(of: heading, in: all).joined(separator: "\n")
        }
        return sections
    }

    /// The backticked key names in the first column of the table under the `Keys` heading; nil when
    /// there is no such heading.
    var keysTableNames: Set<String>? {
        let all = headings
        guard let heading = all.first(where: { $0.title == "Keys" }) else { return nil }
        var names: Set<String> = []
        for line in body(of: heading, in: all) where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 1 else { continue }
            names.formUnion(Self.backticked(in: String(cells[1])))
        }
        return names
    }

    /// Every `--long-flag` in a text.
    static func flags(in text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) })
    }

    /// The contents of every `code span` in a text.
    static func backticked(in text: String) -> [String] {
        text.matches(of: /`([^`]+)`/).map { String($0.output.1) }
    }
}
