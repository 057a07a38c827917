import Foundation
import Monitor
import Testing
import TestFixtures

/// The documentation against the real command line, both ways (issue 6: every flag, key and format
/// the docs name exists, and every one that exists is named). The truth is the built binary's `help`
/// output and the monitor's `KeyMap.standard`, never a list kept in this file. The reference lives in
/// docs/ (issue 10): commands in docs/commands.md, keys in docs/screen.md.
@Suite struct DocsMatchCommandLineTests {
    let commands: MarkdownDocument
    let screen: MarkdownDocument
    let readme: MarkdownDocument

    init() throws {
        let root = SharedData.repositoryRoot
        commands = try MarkdownDocument(contentsOf: root.appendingPathComponent("docs/commands.md"))
        screen = try MarkdownDocument(contentsOf: root.appendingPathComponent("docs/screen.md"))
        readme = try MarkdownDocument(contentsOf: root.appendingPathComponent("README.md"))
    }

    @Test func everyCommandInHelpHasASectionInCommandsDoc() throws {
        let listed = CommandLineHelp.subcommands(inRootHelp: try CommandLineHelp.text())
        try #require(!listed.isEmpty, "'beacontop help' listed no subcommands; has its format changed?")
        let documented = Set(commands.commandSections.keys)
        let undocumented = listed.filter { !documented.contains($0) }
        #expect(undocumented.isEmpty, "docs/commands.md has no '### beacontop NAME' section for: \(undocumented.joined(separator: ", "))")
        let unknown = documented.subtracting(listed).sorted()
        #expect(unknown.isEmpty, "docs/commands.md documents commands 'beacontop help' does not list: \(unknown.joined(separator: ", "))")
    }

    @Test func everyCommandsFlagsMatchItsHelp() throws {
        let sections = commands.commandSections
        try #require(!sections.isEmpty, "docs/commands.md has no '### beacontop NAME' sections")
        for (command, section) in sections.sorted(by: { $0.key < $1.key }) {
            let helpFlags = CommandLineHelp.flags(inCommandHelp: try CommandLineHelp.text(for: command))
            let documentedFlags = MarkdownDocument.flags(in: section).subtracting(["--help"])
            let unknown = documentedFlags.subtracting(helpFlags).sorted()
            let missing = helpFlags.subtracting(documentedFlags).sorted()
            #expect(unknown.isEmpty, "docs/commands.md '### beacontop \(command)' names flags 'beacontop help \(command)' does not list: \(unknown.joined(separator: ", "))")
            #expect(missing.isEmpty, "'beacontop help \(command)' lists flags docs/commands.md '### beacontop \(command)' does not name: \(missing.joined(separator: ", "))")
        }
    }

    @Test func everyBoundKeyIsInTheKeysTable() throws {
        let table = try #require(screen.keysTableNames, "docs/screen.md has no 'Keys' heading with a table")
        let bound = KeyMap.standard.bindings.flatMap(\.keys)
        let missing = bound.filter { !table.contains($0.label) && !table.contains($0.asciiLabel) }.map(\.label)
        #expect(missing.isEmpty, "docs/screen.md's keys table does not name these keys of KeyMap.standard: \(missing.joined(separator: ", "))")
        let labels = Set(bound.flatMap { [$0.label, $0.asciiLabel] })
        let unknown = table.subtracting(labels).sorted()
        #expect(unknown.isEmpty, "docs/screen.md's keys table names keys KeyMap.standard does not bind: \(unknown.joined(separator: ", "))")
    }

    /// The README gives exactly the two commands: run the demo, run every test (CI runs the second).
    @Test func readmeGivesTheTwoCommands() throws {
        let code = try #require(readme.codeLines(under: "The two commands"), "README.md has no 'The two commands' heading")
        let commandsGiven = code.map { line in
            (line.firstRange(of: "#").map { String(line[..<$0.lowerBound]) } ?? line).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        #expect(commandsGiven == ["swift run beacontop demo", "bash Tests/setup.sh && swift test"])
    }

    /// A fresh machine that runs only the README's install line must build: every Debian package a
    /// system library of Package.swift names (`providers: [.apt([...])]`) is on that line.
    @Test func readmeInstallsEveryPackageTheBuildNeeds() throws {
        let manifest = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let needed = manifest.matches(of: /\.apt\(\[([^\]]*)\]\)/).flatMap { match in
            match.output.1.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
        try #require(!needed.isEmpty, "Package.swift names no apt provider; has its format changed?")
        let code = try #require(readme.codeLines(under: "Install"), "README.md has no 'Install' heading")
        let install = try #require(code.first { $0.contains("apt-get install") }, "README.md's Install has no apt-get line")
        let named = Set(install.split(separator: " ").map(String.init))
        let missing = needed.filter { !named.contains($0) }
        #expect(missing.isEmpty, "README.md's install line does not install \(missing.joined(separator: ", ")), which the build needs")
    }

    /// The reference moved out of the README (issue 10): it stays short.
    @Test func readmeStaysUnder15KB() throws {
        let size = readme.text.utf8.count
        #expect(size < 15 * 1024, "README.md is \(size) bytes; move reference material into docs/")
    }
}

/// The parsing the checks above rely on, on small inputs with a known answer.
@Suite struct MarkdownParsingTests {
    @Test func commandSectionsEndAtTheNextHeadingAndIgnoreCodeFences() {
        let document = MarkdownDocument(text: """
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
        let sections = document.commandSections
        #expect(Set(sections.keys) == ["scan", "report"])
        #expect(MarkdownDocument.flags(in: sections["scan"] ?? "") == ["--json", "--duration"])
        #expect(MarkdownDocument.flags(in: sections["report"] ?? "") == ["--csv"])
        #expect(document.keysTableNames == ["q", "↑", "k"])
    }

    @Test func indentedFencesInListsHideTheirLinesAndCodeLinesAreFoundUnderAHeading() {
        let document = MarkdownDocument(text: """
            ## Steps
            1. First:

               ```sh
               # not a heading
               run --this   # and a comment
               ```
            ## Next #
            text
            """)
        #expect(document.headings.map(\.title) == ["Steps", "Next"])
        #expect(document.codeLines(under: "Steps") == ["   # not a heading", "   run --this   # and a comment"])
        #expect(document.codeLines(under: "Next") == [])
        #expect(document.codeLines(under: "Missing") == nil)
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
