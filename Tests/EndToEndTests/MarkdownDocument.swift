import Foundation

/// A Markdown file read the way the documentation tests need it: headings, `### beacontop NAME`
/// sections, the keys table, fenced code, links and the anchors GitHub gives headings. The docs keep
/// a few conventions so this stays a few lines of parsing, not a Markdown parser:
/// - each command has a section headed `### beacontop NAME` (docs/commands.md); every `--flag`
///   written anywhere in that section (usage lines, the flag table, prose) must be one of its flags;
/// - the monitor's keys are a table under a heading `Keys` (docs/screen.md); its first column names
///   each key in backticks, as the help screen labels it (`Key.label`);
/// - links are inline (`[text](target)`) or reference definitions (`[name]: target`).
struct MarkdownDocument {
    let text: String

    init(contentsOf url: URL) throws {
        text = try String(contentsOf: url, encoding: .utf8)
    }

    init(text: String) { self.text = text }

    /// A heading line: its index, level (number of `#`) and title as written.
    struct Heading {
        var line: Int
        var level: Int
        var title: String
    }

    /// A link written in the document: its 1-based line and its target as written.
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    private var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// For each line, whether it is part of a fenced code block (the fences included). Fences may be
    /// indented, as they are inside list items.
    private var fenced: [Bool] {
        var inFence = false
        return lines.map { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                return true
            }
            return inFence
        }
    }

    /// ATX headings outside code blocks (a shell comment in a fence starts with `#` too); a closing
    /// run of `#` is not part of the title.
    var headings: [Heading] {
        var result: [Heading] = []
        for (index, (line, isCode)) in zip(lines, fenced).enumerated() where !isCode {
            guard let match = line.wholeMatch(of: /#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*/) else { continue }
            let title = String(match.output.1)
            guard !title.isEmpty else { continue }
            result.append(Heading(line: index, level: line.prefix(while: { $0 == "#" }).count, title: title))
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

    /// The lines inside fenced code blocks under the heading titled `title` (up to the next heading
    /// of the same or a higher level); nil when there is no such heading.
    func codeLines(under title: String) -> [String]? {
        let all = headings
        guard let heading = all.first(where: { $0.title == title }) else { return nil }
        let end = all.first(where: { $0.line > heading.line && $0.level <= heading.level })?.line ?? lines.count
        let isCode = fenced
        return ((heading.line + 1)..<end).filter { isCode[$0] && !lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("```") }
            .map { String(lines[$0]) }
    }

    /// Every link outside code: inline links and images `[text](target "title")`, and reference
    /// definitions `[name]: target`. Code spans are blanked first, so a link shown as code is no link.
    var links: [Link] {
        var result: [Link] = []
        for (index, (line, isCode)) in zip(lines, fenced).enumerated() where !isCode {
            let prose = String(line).replacing(/`[^`]*`/, with: "")
            if let definition = prose.wholeMatch(of: /[ ]{0,3}\[[^\]]+\]:[ \t]*(\S+).*/) {
                result.append(Link(line: index + 1, target: String(definition.output.1)))
                continue
            }
            for match in prose.matches(of: /\]\(([^()\s]+)(?:[ \t]+"[^"]*")?\)/) {
                result.append(Link(line: index + 1, target: String(match.output.1)))
            }
        }
        return result
    }

    /// The anchors a `#fragment` link can reach in this document on GitHub: one per heading
    /// (`GitHubAnchor.slugs`) and every explicit `<a id="...">` or `<a name="...">`.
    var anchors: Set<String> {
        var result = Set(GitHubAnchor.slugs(forHeadings: headings.map(\.title)))
        for (line, isCode) in zip(lines, fenced) where !isCode {
            for match in String(line).matches(of: /<a\s+(?:id|name)="([^"]+)"/) {
                result.insert(String(match.output.1))
            }
        }
        return result
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
