/// A SOURCE that is no file but a misspelt command name: plain `beacontop SOURCE` is the monitor,
/// so `beacontop dmeo` said only `dmeo: cannot open: No such file or directory`, which does not
/// tell a first-time user (at a booth, from the README) that the command was misspelt.
enum CommandNameSuggestion {
    /// The subcommand `text` most likely misspells (at most two edits, a swap of neighbours
    /// counting one), or nil: for a word of three letters or more with no `/` or `.`, which a
    /// capture's name would have.
    static func command(misspeltAs text: String, among names: [String]) -> String? {
        guard text.count >= 3, !text.contains("/"), !text.contains(".") else { return nil }
        let typed = Array(text.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, Array(name))
            if distance <= 2, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// adjacent characters (`dmeo` is one from `demo`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
