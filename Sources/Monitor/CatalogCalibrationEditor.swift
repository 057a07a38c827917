import Foundation
import Ranging

/// Writes a calibrated `measuredPower` into a catalog's YAML text (the wizard's save, `c` then
/// Enter) by editing lines, not by re-serialising: a hand-edited catalog keeps its comments,
/// order and quoting. Only the calibrated exhibit's entry changes: its `measuredPower:` line is
/// rewritten (a trailing comment stays), or one is added under its `id:`; an exhibit not in the
/// catalog gets a new entry at the end of `exhibits:`. Pure: text in, text out.
public enum CatalogCalibrationEditor {
    /// Where the wizard saves when no `--exhibits` catalog was given.
    public static let defaultPath = "beacontop-calibration.yaml"

    /// The catalog text with `measuredPower` set for the exhibit whose id is `id` (an identity
    /// description; compared as the catalog compares ids). `name` titles a new entry.
    public static func setMeasuredPower(_ power: Int, forID id: String, name: String, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let wanted = Exhibit.normalisedID(id)
        if let entry = entries(in: lines).first(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            let prefix = String(repeating: " ", count: entry.keyIndent)
            if let line = entry.lines.first(where: { key(of: lines[$0], at: entry.keyIndent, dash: $0 == entry.lines.lowerBound ? entry.dashIndent : nil) == "measuredPower" }) {
                lines[line] = replacingValue(of: lines[line], with: "\(power)")
            } else {
                lines.insert("\(prefix)measuredPower: \(power)", at: entry.idLine + 1)
            }
            return lines.joined(separator: "\n")
        }
        return appendingEntry(power: power, id: id, name: name, to: lines)
    }

    /// A new catalog holding only the calibrated exhibit.
    public static func newCatalog(power: Int, id: String, name: String) -> String {
        """
        # Calibrations saved by beacontop's wizard (c). Merge them into your catalog, or pass this
        # file with --exhibits. Schema: docs/formats.md "Catalog format".
        exhibits:
          - id: \(quoted(id))
            name: \(quoted(name))
            measuredPower: \(power)

        """
    }

    struct Entry {
        var dashIndent: Int
        var keyIndent: Int
        var lines: Range<Int>
        var id: String?
        var idLine: Int
    }

    /// The `exhibits:` list's entries: each starts at a `- ` line and runs until a line indented no
    /// deeper than its dash.
    static func entries(in lines: [String]) -> [Entry] {
        guard let listStart = lines.firstIndex(where: { $0.hasPrefix("exhibits:") }) else { return [] }
        var entries: [Entry] = []
        var index = listStart + 1
        while index < lines.count {
            let line = lines[index]
            let indent = line.prefix(while: { $0 == " " }).count
            let content = line.dropFirst(indent)
            if content.isEmpty || content.hasPrefix("#") { index += 1; continue }
            if indent == 0 && !content.hasPrefix("-") { break }
            guard content.hasPrefix("- ") || content == "-" else { index += 1; continue }
            let afterDash = content.dropFirst(1).prefix(while: { $0 == " " }).count
            let keyIndent = indent + 1 + afterDash
            var end = index + 1
            while end < lines.count {
                let next = lines[end]
                let nextIndent = next.prefix(while: { $0 == " " }).count
                let nextContent = next.dropFirst(nextIndent)
                if !nextContent.isEmpty, !nextContent.hasPrefix("#"), nextIndent <= indent { break }
                end += 1
            }
            var entry = Entry(dashIndent: indent, keyIndent: keyIndent, lines: index..<end, id: nil, idLine: index)
            for number in index..<end where key(of: lines[number], at: keyIndent, dash: number == index ? indent : nil) == "id" {
                entry.id = value(of: lines[number])
                entry.idLine = number
            }
            entries.append(entry)
            index = end
        }
        return entries
    }

    /// The mapping key on a line at the entry's key indent (the dash line's key follows `- `).
    static func key(of line: String, at keyIndent: Int, dash: Int?) -> String? {
        let indent = line.prefix(while: { $0 == " " }).count
        var content = Substring(line.dropFirst(indent))
        if dash != nil {
            guard content.hasPrefix("-") else { return nil }
            content = content.dropFirst().drop(while: { $0 == " " })
        } else if indent != keyIndent {
            return nil
        }
        guard let colon = content.firstIndex(of: ":") else { return nil }
        return String(content[..<colon]).trimmingSpaces
    }

    /// A scalar value after the first colon, without quotes or a trailing comment.
    static func value(of line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        var rest = String(line[line.index(after: colon)...]).trimmingSpaces
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest.removeFirst()
            if let close = rest.firstIndex(of: quote) { return String(rest[..<close]) }
            return rest
        }
        if let comment = rest.range(of: " #") { rest = String(rest[..<comment.lowerBound]) }
        return rest.trimmingSpaces
    }

    static func replacingValue(of line: String, with newValue: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let rest = line[line.index(after: colon)...]
        // A trailing comment keeps its alignment: the spaces before `#` stay with it.
        var comment = ""
        if let hash = rest.range(of: " #")?.lowerBound {
            var start = hash
            while start > rest.startIndex, rest[rest.index(before: start)] == " " { start = rest.index(before: start) }
            comment = String(rest[start...])
        }
        return "\(line[...colon]) \(newValue)\(comment)"
    }

    static func appendingEntry(power: Int, id: String, name: String, to original: [String]) -> String {
        var lines = original
        let existing = entries(in: lines)
        let dash = existing.last?.dashIndent ?? 2
        let key = existing.last?.keyIndent ?? dash + 2
        let entry = [
            String(repeating: " ", count: dash) + "- id: \(quoted(id))",
            String(repeating: " ", count: key) + "name: \(quoted(name))",
            String(repeating: " ", count: key) + "measuredPower: \(power)",
        ]
        if let last = existing.last {
            // After the last entry's last non-blank line, so trailing comments and blank lines stay below.
            var end = last.lines.upperBound
            while end > last.lines.lowerBound + 1, lines[end - 1].trimmingSpaces.isEmpty { end -= 1 }
            lines.insert(contentsOf: entry, at: end)
        } else if let list = lines.firstIndex(where: { $0.hasPrefix("exhibits:") }) {
            lines[list] = "exhibits:"
            lines.insert(contentsOf: entry, at: list + 1)
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append("exhibits:")
            lines.append(contentsOf: entry)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
