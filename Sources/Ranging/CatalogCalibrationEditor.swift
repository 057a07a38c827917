import Foundation
import Yams

/// Writes a calibrated `measuredPower` into a catalog's YAML text (the wizard's save, `c` then
/// Enter) by editing lines, not by re-serialising: a hand-edited catalog keeps its comments,
/// order, quoting, line ends (LF or CRLF) and byte order mark. Only the calibrated exhibit's entry
/// changes: its `measuredPower:` line is rewritten (a trailing comment stays), or one is added under
/// its `id:`; an exhibit not in the catalog gets a new entry at the end of `exhibits:`. Pure: text
/// in, text out; `edited` checks the result reads back as intended before anything is saved.
public enum CatalogCalibrationEditor {
    /// Where the wizard saves when no `--exhibits` catalog was given.
    public static let defaultPath = "beacontop-calibration.yaml"

    /// The catalog text with `measuredPower` set for the exhibit whose id is `id` (an identity
    /// description; compared as the catalog compares ids). `name` titles a new entry.
    public static func setMeasuredPower(_ power: Int, forID id: String, name: String, in text: String) -> String {
        // Split on the LF scalar: a CR LF pair is one Character, so splitting on Character "\n" read
        // a CRLF file as one line (fuzz-catalog-editor). Each line keeps its CR; added lines get
        // the file's ending.
        let bom = text.unicodeScalars.first == "\u{FEFF}"
        var lines = text.unicodeScalars.dropFirst(bom ? 1 : 0).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        let ending = lines.first?.unicodeScalars.last == "\r" ? "\r" : ""
        let wanted = Exhibit.normalisedID(id)
        if let flow = flowEdited(power: power, wanted: wanted, id: id, name: name, lines: lines, ending: ending) {
            return (bom ? "\u{FEFF}" : "") + flow
        }
        if let entry = entries(in: lines).first(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            let prefix = String(repeating: " ", count: entry.keyIndent)
            if let line = entry.lines.first(where: { key(of: lines[$0], at: entry.keyIndent, dash: $0 == entry.lines.lowerBound ? entry.dashIndent : nil) == "measuredPower" }) {
                lines[line] = replacingValue(of: lines[line], with: "\(power)")
            } else {
                let quote = keyQuote(of: lines[entry.idLine], dash: entry.idLine == entry.lines.lowerBound)
                lines.insert("\(prefix)\(quote)measuredPower\(quote): \(power)\(ending)", at: entry.idLine + 1)
            }
        } else {
            lines = appendingEntry(power: power, id: id, name: name, to: lines, ending: ending)
        }
        return (bom ? "\u{FEFF}" : "") + lines.joined(separator: "\n")
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
        guard let listStart = lines.firstIndex(where: isListKey) else { return [] }
        var entries: [Entry] = []
        var index = listStart + 1
        while index < lines.count {
            let line = lines[index]
            let indent = line.prefix(while: { $0 == " " }).count
            let content = line.dropFirst(indent).trimmingSpaces
            if content.isEmpty || content.hasPrefix("#") { index += 1; continue }
            if indent == 0 && !content.hasPrefix("-") { break }
            guard content.hasPrefix("- ") || content == "-" else { index += 1; continue }
            var end = index + 1
            while end < lines.count {
                let next = lines[end]
                let nextIndent = next.prefix(while: { $0 == " " }).count
                let nextContent = next.dropFirst(nextIndent).trimmingSpaces
                if !nextContent.isEmpty, !nextContent.hasPrefix("#"), nextIndent <= indent { break }
                end += 1
            }
            // `- id: x` puts the keys after the dash; a bare `-` puts them on the lines below.
            let afterDash = content.dropFirst(1).prefix(while: { $0 == " " }).count
            let below = lines[(index + 1)..<end].first { !$0.trimmingSpaces.isEmpty && !$0.trimmingSpaces.hasPrefix("#") }
            let keyIndent = content == "-" ? (below?.prefix(while: { $0 == " " }).count ?? indent + 2) : indent + 1 + afterDash
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

    /// The top-level `exhibits:` key's line.
    static func isListKey(_ line: String) -> Bool {
        key(of: line, at: 0, dash: nil) == "exhibits"
    }

    /// The mapping key on a line at the entry's key indent (the dash line's key follows `- `),
    /// without the quotes a key may be written in.
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
        return unquoted(key: String(content[..<colon]).trimmingSpaces)
    }

    /// The quote a block entry's key is written in (`"id": a`, JSON's way, in a block list): a key
    /// the save adds to the entry, or a new entry after it, is written the same way.
    static func keyQuote(of line: String, dash: Bool) -> String {
        var content = line.drop(while: { $0 == " " })
        if dash { content = content.dropFirst().drop(while: { $0 == " " }) }
        return content.first.map { $0 == "\"" || $0 == "'" ? String($0) : "" } ?? ""
    }

    /// A key without the quotes it may be written in (`"id"`, `'id'`).
    static func unquoted(key: String) -> String {
        if key.count >= 2, let quote = key.first, quote == "\"" || quote == "'", key.last == quote {
            return String(key.dropFirst().dropLast())
        }
        return key
    }

    /// A scalar value after the first colon, as YAML reads it (quotes, escapes and a trailing
    /// comment gone): an id written `"a\tb"` was compared as written, not found, and its entry
    /// added again (fuzz-catalog-editor). What Yams does not take as one scalar on its own (a value
    /// continued on the next line, an alias) is cut at its quotes or comment instead.
    static func value(of line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        var rest = String(line[line.index(after: colon)...]).trimmingSpaces
        if let node = try? Yams.compose(yaml: rest), let scalar = node.scalar { return scalar.string }
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
        let ending = line.unicodeScalars.last == "\r" ? "\r" : ""
        var rest = line[line.index(after: colon)...]
        if !ending.isEmpty { rest = rest.dropLast() }
        // A trailing comment keeps its alignment: the blanks before `#` stay with it.
        var comment = ""
        if let hash = rest.range(of: " #")?.lowerBound ?? rest.range(of: "\t#")?.lowerBound {
            var start = hash
            while start > rest.startIndex, rest[rest.index(before: start)] == " " || rest[rest.index(before: start)] == "\t" {
                start = rest.index(before: start)
            }
            comment = String(rest[start...])
        }
        return "\(line[...colon])\(newValue.isEmpty ? "" : " " + newValue)\(comment)\(ending)"
    }

    static func appendingEntry(power: Int, id: String, name: String, to original: [String], ending: String) -> [String] {
        var lines = original
        let existing = entries(in: lines)
        let dash = existing.last?.dashIndent ?? 2
        let key = existing.last?.keyIndent ?? dash + 2
        let listLine = lines.firstIndex(where: isListKey)
        let quote = existing.last.map { keyQuote(of: lines[$0.idLine], dash: $0.idLine == $0.lines.lowerBound) }
            ?? listLine.map { keyQuote(of: lines[$0], dash: false) } ?? ""
        var entry = [
            String(repeating: " ", count: dash) + "- \(quote)id\(quote): \(quoted(id))" + ending,
            String(repeating: " ", count: key) + "\(quote)name\(quote): \(quoted(name))" + ending,
            String(repeating: " ", count: key) + "\(quote)measuredPower\(quote): \(power)" + ending,
        ]
        // A list written one flow mapping a line (`- {id: a, name: A}`) gets one more such line.
        if let last = existing.last, let style = flowStyle(of: last, in: lines) {
            entry = [String(repeating: " ", count: dash) + "- " + style.mapping(id: id, name: name, power: power, ending: ending) + ending]
        }
        if let last = existing.last {
            // After the last entry's last non-blank line, so trailing comments and blank lines stay below.
            var end = last.lines.upperBound
            while end > last.lines.lowerBound + 1, lines[end - 1].trimmingSpaces.isEmpty { end -= 1 }
            lines.insert(contentsOf: entry, at: end)
        } else if let list = listLine {
            // Only an empty list is rewritten (`exhibits:`, `exhibits: []` or `[ ]`, `~`): one written
            // in flow style, `exhibits: [{id: a}]`, was replaced by `exhibits:` and lost its entries.
            // The key keeps its quotes and a trailing comment stays.
            let value = value(of: lines[list]).filter { $0 != " " && $0 != "\t" }
            if value.isEmpty || value == "[]" || value == "~" || value == "null" {
                lines[list] = replacingValue(of: lines[list], with: "")
            }
            lines.insert(contentsOf: entry, at: list + 1)
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append("exhibits:" + ending)
            lines.append(contentsOf: entry)
            lines.append("")
        }
        return lines
    }

    /// A YAML double-quoted scalar: backslash, quote, and every character YAML does not print as
    /// itself (controls, line and paragraph separators, NEL, the byte order mark) escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{20}" ... "\u{7E}", "\u{A0}" ... "\u{2027}", "\u{202A}" ... "\u{D7FF}", "\u{E000}" ... "\u{FEFE}", "\u{FF00}" ... "\u{FFFD}", "\u{10000}" ... "\u{10FFFF}":
                out.unicodeScalars.append(scalar)
            default:
                out += scalar.value > 0xFFFF ? String(format: "\\U%08X", scalar.value) : String(format: "\\u%04X", scalar.value)
            }
        }
        return out + "\""
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
