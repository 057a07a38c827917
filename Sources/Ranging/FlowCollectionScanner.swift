/// Finds a YAML flow collection's extent and its top-level items in a catalog's text, the way YAML
/// reads flow style (`{id: a, name: "B, c"}`, `[{...}, {...}]`, over one line or several), so the
/// wizard's save can edit a hand-written flow entry in place rather than re-serialise the file.
/// Quoted scalars ('' and \ escapes), nested collections and comments are stepped over; a quote
/// inside a plain scalar (`Bob's desk`) is text, as YAML reads it. Pure, on the text's scalars.
struct FlowCollectionScanner {
    /// One item between commas, blanks and comments trimmed; `colon` is its mapping indicator's
    /// index when it has one (`key: value`, or `"key":value` after a quoted key).
    struct Item {
        var range: Range<Int>
        var colon: Int?
    }

    /// A collection from its opening `{` or `[` to its matching close.
    struct Collection {
        var open: Int
        var close: Int
        var items: [Item]
    }

    let text: [Unicode.Scalar]

    /// The collection opening at `open`, or nil when the text ends (or a bracket of the other kind
    /// closes) before it does: YAML would not load such a file, and the save leaves it to the
    /// line editor, whose result is then refused.
    func collection(at open: Int) -> Collection? {
        guard open < text.count, let closer = Self.closers[text[open]] else { return nil }
        var stack = [closer]
        var items: [Item] = []
        var start: Int?
        var last = open
        var colon: Int?
        var afterQuote = false
        var index = open + 1
        func endItem() {
            if let first = start { items.append(Item(range: first..<(last + 1), colon: colon)) }
            start = nil
            colon = nil
        }
        while index < text.count {
            let scalar = text[index]
            let startsScalar = start == nil || Self.indicators.contains(text[last]) && !afterQuote
            if scalar == "#", Self.blanks.contains(text[index - 1]) {
                while index < text.count, text[index] != "\n" { index += 1 }
                continue
            }
            if Self.blanks.contains(scalar) { index += 1; continue }
            if stack.count == 1, scalar == "," { endItem(); last = index; afterQuote = false; index += 1; continue }
            if start == nil { start = index }
            if (scalar == "\"" || scalar == "'") && startsScalar {
                guard let end = closingQuote(from: index) else { return nil }
                last = end
                afterQuote = true
                index = end + 1
                continue
            }
            if let inner = Self.closers[scalar] {
                stack.append(inner)
            } else if Self.closers.values.contains(scalar) {
                guard stack.removeLast() == scalar else { return nil }
                if stack.isEmpty {
                    if start == index { start = nil }
                    endItem()
                    return Collection(open: open, close: index, items: items)
                }
            } else if scalar == ":", stack.count == 1, colon == nil,
                      afterQuote && last == index - 1 || index + 1 == text.count || Self.valueFollows.contains(text[index + 1]) {
                colon = index
            }
            last = index
            afterQuote = false
            index += 1
        }
        return nil
    }

    /// The first scalar of the value after `index` (a mapping's colon): blanks, line breaks and
    /// comments skipped, so `exhibits:` with its `[` on a later line is found; `text.count` if none.
    func valueStart(after index: Int) -> Int {
        var index = index + 1
        while index < text.count {
            if Self.blanks.contains(text[index]) {
                index += 1
            } else if text[index] == "#", Self.blanks.contains(text[index - 1]) {
                while index < text.count, text[index] != "\n" { index += 1 }
            } else {
                break
            }
        }
        return index
    }

    /// The `{` of a document written as one flow mapping (`{exhibits: [...]}`, a JSON file), after
    /// any blank lines, comments, directives and a `---` marker; nil when the document is in block style.
    func rootMapping() -> Collection? {
        var index = 0
        while index < text.count {
            let lineStart = index == 0 || text[index - 1] == "\n"
            let marker = lineStart && index + 3 <= text.count && text[index..<(index + 3)].elementsEqual("---".unicodeScalars)
                && (index + 3 == text.count || Self.blanks.contains(text[index + 3]))
            if Self.blanks.contains(text[index]) {
                index += 1
            } else if marker {
                index += 3
            } else if text[index] == "#" || lineStart && text[index] == "%" {
                while index < text.count, text[index] != "\n" { index += 1 }
            } else {
                break
            }
        }
        return index < text.count && text[index] == "{" ? collection(at: index) : nil
    }

    /// The index of the quote closing the quoted scalar opened at `open`.
    func closingQuote(from open: Int) -> Int? {
        let quote = text[open]
        var index = open + 1
        while index < text.count {
            if quote == "\"", text[index] == "\\" { index += 2; continue }
            if text[index] == quote {
                if quote == "'", index + 1 < text.count, text[index + 1] == "'" { index += 2; continue }
                return index
            }
            index += 1
        }
        return nil
    }

    static let closers: [Unicode.Scalar: Unicode.Scalar] = ["{": "}", "[": "]"]
    static let blanks: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n"]
    /// After these a quote opens a quoted scalar; anywhere else it is part of a plain one.
    static let indicators: Set<Unicode.Scalar> = ["{", "[", ",", ":", "?"]
    /// A `:` followed by one of these is a mapping's indicator, not part of a plain scalar (`a:b`).
    static let valueFollows: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n", ",", "}", "]", "{", "["]
}
