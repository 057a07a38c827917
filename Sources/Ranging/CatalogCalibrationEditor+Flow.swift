extension CatalogCalibrationEditor {
    /// An exhibit written as a flow mapping: `- {id: a, name: A}` in a block list (a short catalog,
    /// one exhibit a line) or an item of `exhibits: [{id: a}, {id: b}]`.
    struct FlowEntry {
        var mapping: FlowCollectionScanner.Collection
        var id: String?
        var idItem: FlowCollectionScanner.Item?
        var powerItem: FlowCollectionScanner.Item?
        /// `{"id": ...}`, as JSON writes it: an added key is quoted the same way.
        var quotedKeys = false
    }

    /// The text with `measuredPower` set in a flow-style entry, or a new entry added to a flow list;
    /// nil when the exhibit's entry is not in flow style and the list is not one, so the line editor
    /// does it. Only the value (or one `, measuredPower: P` after the id) changes: the rest of the
    /// mapping, its quoting, comments and line breaks stay.
    static func flowEdited(power: Int, wanted: String, id: String, name: String, lines: [String], ending: String) -> String? {
        guard let listLine = lines.firstIndex(where: isListKey) else { return nil }
        let text = Array(lines.joined(separator: "\n").unicodeScalars)
        var lineStarts = [0]
        for line in lines.dropLast() { lineStarts.append(lineStarts[lineStarts.count - 1] + line.unicodeScalars.count + 1) }
        let scanner = FlowCollectionScanner(text: text)
        var list: FlowCollectionScanner.Collection?
        var mappings: [Int] = []
        let afterKey = lines[listLine].unicodeScalars.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first?.count ?? 0
        let listValue = lineStarts[listLine] + afterKey + 1 + lines[listLine].unicodeScalars.dropFirst(afterKey + 1).prefix(while: { $0 == " " || $0 == "\t" }).count
        if listValue < text.count, text[listValue] == "[" {
            guard let collection = scanner.collection(at: listValue) else { return nil }
            list = collection
            mappings = collection.items.map(\.range.lowerBound)
        } else {
            for entry in entries(in: lines) {
                let dashLine = lines[entry.lines.lowerBound].unicodeScalars
                let offset = entry.dashIndent + 1 + dashLine.dropFirst(entry.dashIndent + 1).prefix(while: { $0 == " " }).count
                mappings.append(lineStarts[entry.lines.lowerBound] + offset)
            }
        }
        let flowEntries = mappings.compactMap { $0 < text.count && text[$0] == "{" ? scanner.collection(at: $0).map { flowEntry($0, in: text) } : nil }
        var edited = text
        if let entry = flowEntries.first(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            let key = entry.quotedKeys ? "\"measuredPower\"" : "measuredPower"
            if let item = entry.powerItem, let colon = item.colon {
                edited.replaceSubrange((colon + 1)..<item.range.upperBound, with: " \(power)".unicodeScalars)
            } else if let item = entry.idItem {
                edited.insert(contentsOf: ", \(key): \(power)".unicodeScalars, at: item.range.upperBound)
            } else {
                return nil
            }
        } else if let list, let last = list.items.last, text[last.range.lowerBound] == "{",
                  !entries(in: lines).contains(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            let quotedKeys = flowEntries.last?.quotedKeys ?? false
            let keys = quotedKeys ? ["\"id\"", "\"name\"", "\"measuredPower\""] : ["id", "name", "measuredPower"]
            let mapping = "{\(keys[0]): \(quoted(id)), \(keys[1]): \(quoted(name)), \(keys[2]): \(power)}"
            insert(mapping, after: last, closingAt: list.close, in: &edited, ending: ending)
        } else {
            return nil
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: edited)
        return result
    }

    /// A new item after the flow list's last one: on a line of its own, indented as that one, when
    /// the list's close is on a later line (a list written one exhibit a line, a trailing comment
    /// staying where it was); otherwise `, {...}` on the same line.
    static func insert(_ mapping: String, after last: FlowCollectionScanner.Item, closingAt close: Int, in text: inout [Unicode.Scalar], ending: String) {
        let end = last.range.upperBound
        guard let lineEnd = text[end..<close].firstIndex(of: "\n") else {
            text.insert(contentsOf: ", \(mapping)".unicodeScalars, at: end)
            return
        }
        let lineStart = text[..<last.range.lowerBound].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let before = text[lineStart..<last.range.lowerBound]
        let indent = before.allSatisfy { $0 == " " || $0 == "\t" } ? String(String.UnicodeScalarView(before)) : String(repeating: " ", count: before.count)
        let hasComma = text[end..<lineEnd].first(where: { $0 != " " && $0 != "\t" }) == ","
        let lineBreakAt = text[lineEnd - 1] == "\r" ? lineEnd - 1 : lineEnd
        text.insert(contentsOf: "\(ending)\n\(indent)\(mapping)".unicodeScalars, at: lineBreakAt)
        if !hasComma { text.insert(",", at: end) }
    }

    /// The mapping's id and measured power, keys and values read as YAML reads them.
    static func flowEntry(_ mapping: FlowCollectionScanner.Collection, in text: [Unicode.Scalar]) -> FlowEntry {
        var entry = FlowEntry(mapping: mapping)
        for item in mapping.items {
            guard let colon = item.colon else { continue }
            let keyText = String(String.UnicodeScalarView(text[item.range.lowerBound..<colon]))
            let key = unquoted(key: keyText.trimmingSpaces)
            if key == "id" {
                entry.id = value(of: ":" + String(String.UnicodeScalarView(text[(colon + 1)..<item.range.upperBound])))
                entry.idItem = item
                entry.quotedKeys = keyText.hasPrefix("\"")
            } else if key == "measuredPower" {
                entry.powerItem = item
            }
        }
        return entry
    }
}
