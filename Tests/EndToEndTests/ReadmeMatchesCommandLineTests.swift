import Foundation
import Monitor
import Testing
import TestFixtures

/// README.md against the real command line, both ways (issue 6: every flag, key and format README
/// names exists, and every one that exists is named). The truth is the built binary's `help` output
/// and the monitor's `KeyMap.standard`, never a list kept in this file.
@Suite struct ReadmeMatchesCommandLineTests {
    let readme: ReadmeDocument

    init() throws {
        readme = try ReadmeDocument(contentsOf: SharedData.repositoryRoot.appendingPathComponent("README.md"))
    }

    @Test func everyCommandInHelpHasAReadmeSection() throws {
        let commands = CommandLineHelp.subcommands(inRootHelp: try CommandLineHelp.text())
        try #require(!commands.isEmpty, "'beacontop help' listed no subcommands; has its format changed?")
        let documented = Set(readme.commandSections.keys)
        let undocumented = commands.filter { !documented.contains($0) }
        #expect(undocumented.isEmpty, "README has no '### beacontop NAME' section for: \(undocumented.joined(separator: ", "))")
        let unknown = documented.subtracting(commands).sorted()
        #expect(unknown.isEmpty, "README documents commands 'beacontop help' does not list: \(unknown.joined(separator: ", "))")
    }

    @Test func everyCommandsFlagsMatchItsHelp() throws {
        let sections = readme.commandSections
        try #require(!sections.isEmpty, "README has no '### beacontop NAME' sections")
        for (command, section) in sections.sorted(by: { $0.key < $1.key }) {
            let helpFlags = CommandLineHelp.flags(inCommandHelp: try CommandLineHelp.text(for: command))
            let readmeFlags = ReadmeDocument.flags(in: section).subtracting(["--help"])
            let unknown = readmeFlags.subtracting(helpFlags).sorted()
            let missing = helpFlags.subtracting(readmeFlags).sorted()
            #expect(unknown.isEmpty, "README's '### beacontop \(command)' names flags 'beacontop help \(command)' does not list: \(unknown.joined(separator: ", "))")
            #expect(missing.isEmpty, "'beacontop help \(command)' lists flags README's '### beacontop \(command)' does not name: \(missing.joined(separator: ", "))")
        }
    }

    @Test func everyBoundKeyIsInTheKeysTable() throws {
        let table = try #require(readme.keysTableNames, "README has no 'Keys' heading with a table")
        let bound = KeyMap.standard.bindings.flatMap(\.keys)
        let missing = bound.filter { !table.contains($0.label) && !table.contains($0.asciiLabel) }.map(\.label)
        #expect(missing.isEmpty, "README's keys table does not name these keys of KeyMap.standard: \(missing.joined(separator: ", "))")
        let labels = Set(bound.flatMap { [$0.label, $0.asciiLabel] })
        let unknown = table.subtracting(labels).sorted()
        #expect(unknown.isEmpty, "README's keys table names keys KeyMap.standard does not bind: \(unknown.joined(separator: ", "))")
    }
}

/// The parsing the checks above rely on, on small inputs with a known answer.
@Suite struct ReadmeParsingTests {
    @Test func commandSectionsEndAtTheNextHeadingAndIgnoreCodeFences() {
        let readme = ReadmeDocument(text: """
            ## Commands
            ### beacontop scan
            ```sh
            # a shell comment, not a heading
            beacontop scan hci0 --json
            ```
            | `--duration S` | stop |
            ### `beacontop report`
            `--csv` only
            ## Keys
            | key | action |
            |---|---|
            | `q` | quit |
            | `↑` / `k` | up |
            """)
        let sections = readme.commandSections
        #expect(Set(sections.keys) == ["scan", "report"])
        #expect(ReadmeDocument.flags(in: sections["scan"] ?? "") == ["--json", "--duration"])
        #expect(ReadmeDocument.flags(in: sections["report"] ?? "") == ["--csv"])
        #expect(readme.keysTableNames == ["q", "↑", "k"])
    }

    @Test func helpParsingTakesOptionNamesNotDescriptionsOrWrappedLines() {
        let help = """
            OVERVIEW: Something.

            With --exhibits in the discussion, which is not an option entry.

            USAGE: beacontop x <file> [--json] [--truth-step <s>]

            OPTIONS:
              --json                  Write NDJSON; see also --other.
              --truth-step <truth-step>
                                      Seconds between samples, unlike --nothing.
              -h, --help              Show help information.

            SUBCOMMANDS:
              decode                  Decode.
              monitor (default)       The monitor.
                                      wrapped line

              See 'beacontop help <subcommand>' for detailed help.
            """
        #expect(CommandLineHelp.flags(inCommandHelp: help) == ["--json", "--truth-step"])
        #expect(CommandLineHelp.subcommands(inRootHelp: help) == ["decode", "monitor"])
    }
}
