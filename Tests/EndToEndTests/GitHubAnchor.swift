/// The anchors GitHub gives Markdown headings (its github-slugger rules): the heading's text as
/// rendered (code spans keep their content, links their text, HTML tags vanish), lower-cased; every
/// character that is not a letter, a number, `-` or `_` dropped; each space turned into `-` (runs
/// are not collapsed); a repeated slug gets `-1`, `-2`, ... in document order.
enum GitHubAnchor {
    static func slug(_ heading: String) -> String {
        var text = heading.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        text = text.replacing(/<[^>]*>/, with: "")
        var slug = ""
        for character in text.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// The anchors of a document's headings, in order, with GitHub's suffixes for repeats.
    static func slugs(forHeadings headings: [String]) -> [String] {
        var seen: [String: Int] = [:]
        var taken: Set<String> = []
        return headings.map { heading in
            let base = slug(heading)
            var candidate = base
            while taken.contains(candidate) {
                let count = (seen[base] ?? 0) + 1
                seen[base] = count
                candidate = "\(base)-\(count)"
            }
            taken.insert(candidate)
            return candidate
        }
    }
}
