extension CatalogCalibrationEditor {
    /// An exhibit written as a flow mapping: `- {id: a, name: A}` in a block list (a short catalog,
    /// one exhibit a line) or an item of `exhibits: [{id: a}, {id: b}]`.
    struct FlowEntry {
        var mapping: FlowCollectionScanner.Collection
        var id: String?
        var idItem: FlowCollectionScanner.Item?
        var powerItem: FlowCollectionScanner.Item?
        var style: FlowStyle
    }

    /// How a flow mapping is written, so that what the save adds in it or after it is written the
    /// same way: a script's JSON (`{"id":"a","name":"A"}`, or pretty-printed one key a line) gets
    /// JSON back, a hand-written `{id: a, name: A}` gets plain keys.
    struct FlowStyle {
        /// `"` (JSON's way) or `'` when the keys are quoted; empty when they are plain.
        var keyQuote = ""
        /// `": "`, `":"` after a quoted key as compact JSON writes it, or `" : "` as Swift's
        /// pretty-printing JSONEncoder does.
        var keySeparator = ": "
        /// `", "`, or `","` as compact JSON writes it.
        var itemSeparator = ", "
        /// The blanks before each key and before the closing brace when the mapping is written one
        /// key a line (pretty-printed JSON); nil when its keys share a line.
        var lines: (keys: String, close: String)?

        func key(_ name: String) -> String { keyQuote + name + keyQuote + keySeparator }

        /// A new exhibit's mapping; `ending` is the file's CR before each line break.
        func mapping(id: String, name: String, power: Int, ending: String) -> String {
            let items = [key("id") + quoted(id), key("name") + quoted(name), key("measuredPower") + "\(power)"]
            guard let lines else { return "{" + items.joined(separator: itemSeparator) + "}" }
            let lineBreak = ending + "\n"
            return "{" + lineBreak + items.map { lines.keys + $0 }.joined(separator: "," + lineBreak) + lineBreak + lines.close + "}"
        }
    }

    /// The text with `measuredPower` set in a flow-style entry, or a new entry added to a flow list;
    /// nil when the exhibit's entry is not in flow style and the list is not one, so the line editor
    /// does it. Only the value (or one `, measuredPower: P` after the id) changes: the rest of the
    /// mapping, its quoting, comments and line breaks stay. The list is found after `exhibits:` (on
    /// its line or a later one) or, in a catalog written as one flow mapping (a JSON file), as that
    /// mapping's `exhibits` value.
    static func flowEdited(power: Int, wanted: String, id: String, name: String, lines: [String], ending: String) -> String? {
        let text = Array(lines.joined(separator: "\n").unicodeScalars)
        let scanner = FlowCollectionScanner(text: text)
        let root = scanner.rootMapping()
        var listStart: Int?
        var listKeyLineEnd: Int?
        if let root {
            let key = root.items.first { item in item.colon.map { unquoted(key: string(text[item.range.lowerBound..<$0]).trimmingSpaces) } == "exhibits" }
            guard let colon = key?.colon else { return nil }
            listStart = scanner.valueStart(after: colon)
        } else if let listLine = lines.firstIndex(where: isListKey) {
            let lineStart = lines[..<listLine].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            guard let colon = Array(lines[listLine].unicodeScalars).firstIndex(of: ":") else { return nil }
            let start = scanner.valueStart(after: lineStart + colon)
            if start < text.count, text[start] == "[" { listStart = start }
            listKeyLineEnd = lineStart + lines[listLine].unicodeScalars.count
        } else {
            return nil
        }
        var list: FlowCollectionScanner.Collection?
        var mappings: [Int] = []
        if let listStart {
            guard listStart < text.count, text[listStart] == "[", let collection = scanner.collection(at: listStart) else { return nil }
            list = collection
            mappings = collection.items.map(\.range.lowerBound)
            // `exhibits: []` (or `[ ]`) on the key's line in a block-style file is a placeholder the
            // line editor replaces by a block list, as a hand-written catalog continues.
            if let listKeyLineEnd, collection.items.isEmpty, collection.close < listKeyLineEnd { return nil }
        } else {
            var lineStarts = [0]
            for line in lines.dropLast() { lineStarts.append(lineStarts[lineStarts.count - 1] + line.unicodeScalars.count + 1) }
            for entry in entries(in: lines) {
                let dashLine = lines[entry.lines.lowerBound].unicodeScalars
                mappings.append(lineStarts[entry.lines.lowerBound] + entry.dashIndent + 1 + dashLine.dropFirst(entry.dashIndent + 1).prefix(while: { $0 == " " }).count)
            }
        }
        let flowEntries = mappings.compactMap { $0 < text.count && text[$0] == "{" ? scanner.collection(at: $0).map { flowEntry($0, in: text) } : nil }
        var edited = text
        if let entry = flowEntries.first(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            if let item = entry.powerItem, let colon = item.colon {
                // The value alone is replaced: the blanks after the colon stay (`"measuredPower":-60`).
                let value = scanner.valueStart(after: colon)
                edited.replaceSubrange(value < item.range.upperBound ? value..<item.range.upperBound : (colon + 1)..<item.range.upperBound,
                                       with: (value < item.range.upperBound ? "\(power)" : " \(power)").unicodeScalars)
            } else if let item = entry.idItem {
                let added = entry.style.key("measuredPower") + "\(power)"
                let next = entry.mapping.items.first { $0.range.lowerBound > item.range.lowerBound }
                if indent(before: item.range.lowerBound, in: text) != nil {
                    insert(added, after: item, before: next?.range.lowerBound ?? entry.mapping.close, separator: entry.style.itemSeparator,
                           more: next != nil, in: &edited, ending: ending)
                } else {
                    edited.insert(contentsOf: (entry.style.itemSeparator + added).unicodeScalars, at: item.range.upperBound)
                }
            } else {
                return nil
            }
        } else if let list, list.items.last.map({ text[$0.range.lowerBound] == "{" }) ?? true,
                  !entries(in: lines).contains(where: { $0.id.map(Exhibit.normalisedID) == wanted }) {
            var style = flowEntries.last?.style ?? root.map { flowEntry($0, in: text).style } ?? FlowStyle()
            if flowEntries.isEmpty { style.lines = nil }
            let mapping = style.mapping(id: id, name: name, power: power, ending: ending)
            if let last = list.items.last {
                insert(mapping, after: last, before: list.close, separator: separator(in: list, text: text) ?? style.itemSeparator,
                       more: false, in: &edited, ending: ending)
            } else if text[(list.open + 1)..<list.close].allSatisfy({ $0 == " " || $0 == "\t" }) {
                edited.replaceSubrange((list.open + 1)..<list.close, with: mapping.unicodeScalars)
            } else {
                edited.insert(contentsOf: mapping.unicodeScalars, at: list.open + 1)
            }
        } else {
            return nil
        }
        return string(edited[...])
    }

    /// `item` after `after`: on a line of its own, indented as that one, when what follows (`next`:
    /// the next item, or the close) is on a later line (a list written one exhibit a line, a
    /// pretty-printed mapping; a trailing comment stays where it was); otherwise after `separator`
    /// on the same line. `more`: another item follows, so the new line ends with a comma.
    static func insert(_ item: String, after: FlowCollectionScanner.Item, before next: Int, separator: String, more: Bool,
                       in text: inout [Unicode.Scalar], ending: String) {
        let end = after.range.upperBound
        guard let lineEnd = text[end..<next].firstIndex(of: "\n") else {
            text.insert(contentsOf: (separator + item).unicodeScalars, at: end)
            return
        }
        let lineStart = text[..<after.range.lowerBound].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let prefix = indent(before: after.range.lowerBound, in: text) ?? String(repeating: " ", count: after.range.lowerBound - lineStart)
        let hasComma = text[end..<lineEnd].first(where: { $0 != " " && $0 != "\t" }) == ","
        let lineBreakAt = text[lineEnd - 1] == "\r" ? lineEnd - 1 : lineEnd
        text.insert(contentsOf: "\(ending)\n\(prefix)\(item)\(more ? "," : "")".unicodeScalars, at: lineBreakAt)
        if !hasComma { text.insert(",", at: end) }
    }

    /// The blanks between the start of `index`'s line and it; nil when anything else is there.
    static func indent(before index: Int, in text: [Unicode.Scalar]) -> String? {
        let lineStart = text[..<index].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let before = text[lineStart..<index]
        return before.allSatisfy { $0 == " " || $0 == "\t" } ? string(before) : nil
    }

    /// `", "` or `","`, as the collection's first comma between items is written; nil with one item.
    static func separator(in collection: FlowCollectionScanner.Collection, text: [Unicode.Scalar]) -> String? {
        for (item, next) in zip(collection.items, collection.items.dropFirst()) {
            if let comma = text[item.range.upperBound..<next.range.lowerBound].firstIndex(of: ",") {
                return FlowCollectionScanner.blanks.contains(text[comma + 1]) ? ", " : ","
            }
        }
        return nil
    }

    /// The mapping's id and measured power, keys and values read as YAML reads them, and its style.
    static func flowEntry(_ mapping: FlowCollectionScanner.Collection, in text: [Unicode.Scalar]) -> FlowEntry {
        var entry = FlowEntry(mapping: mapping, style: FlowStyle())
        let keyed = mapping.items.filter { $0.colon != nil }
        for item in keyed {
            let keyText = string(text[item.range.lowerBound..<item.colon!]).trimmingSpaces
            let key = unquoted(key: keyText)
            if key == "id" {
                entry.id = value(of: ":" + string(text[(item.colon! + 1)..<item.range.upperBound]))
                entry.idItem = item
            } else if key == "measuredPower" {
                entry.powerItem = item
            }
        }
        if let example = entry.idItem ?? keyed.first, let colon = example.colon {
            let first = text[example.range.lowerBound]
            // Swift's JSONEncoder pretty-prints `"id" : "a"`: the blanks before the colon are kept too.
            let before = text[example.range.lowerBound..<colon].reversed().prefix(while: { $0 == " " }).count
            var after = " "
            if first == "\"" || first == "'" {
                entry.style.keyQuote = String(first)
                if colon + 1 < example.range.upperBound, !FlowCollectionScanner.blanks.contains(text[colon + 1]) { after = "" }
            }
            entry.style.keySeparator = String(repeating: " ", count: before) + ":" + after
        }
        entry.style.itemSeparator = separator(in: mapping, text: text) ?? (entry.style.keySeparator.hasSuffix(":") ? "," : ", ")
        if let first = mapping.items.first, let keys = indent(before: first.range.lowerBound, in: text),
           let close = indent(before: mapping.close, in: text) {
            entry.style.lines = (keys, close)
        }
        return entry
    }

    /// The style of a block list's entry written as a flow mapping (`- {"id": "a"}`), which a new
    /// entry after it follows; nil when the entry is in block style.
    static func flowStyle(of entry: Entry, in lines: [String]) -> FlowStyle? {
        let text = Array(lines[entry.lines].joined(separator: "\n").unicodeScalars)
        let open = entry.dashIndent + 1 + text.dropFirst(entry.dashIndent + 1).prefix(while: { $0 == " " }).count
        guard open < text.count, text[open] == "{", let mapping = FlowCollectionScanner(text: text).collection(at: open) else { return nil }
        return flowEntry(mapping, in: text).style
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars)
        return out
    }
}
