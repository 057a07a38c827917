/// `beacontop help NAME` for a NAME that is no command: argument-parser's `help` drops words it
/// cannot place and printed the top-level help with status 0, so `beacontop help moniter` looked
/// like an answer, and a script checking `help NAME` learnt nothing from the status.
enum HelpTopic {
    /// The usage error for `arguments` (the command line after the program's name) when it is
    /// `help` followed by a word that names no command, else nil. Every command here is a leaf,
    /// so the only topic is one command name; flags (`help -h`) are argument-parser's to handle.
    static func unknown(in arguments: [String], commands: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        let words = arguments.dropFirst().filter { !$0.hasPrefix("-") }
        guard let topic = words.first else { return nil }
        guard commands.contains(topic) else {
            let guess = CommandNameSuggestion.command(misspeltAs: topic, among: commands).map { "; did you mean `beacontop help \($0)`?" }
            return "help: no command `\(topic)`\(guess ?? "; `beacontop help` lists the commands")"
        }
        guard words.count == 1 else { return "help: `\(topic)` has no command `\(words[1])`; `beacontop help \(topic)` lists its flags" }
        return nil
    }
}
