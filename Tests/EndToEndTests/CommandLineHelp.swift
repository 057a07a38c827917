import Foundation
import TestFixtures

/// The built `beacontop` executable's own `help` output: the truth docs/commands.md and the manual
/// page are checked against.
enum CommandLineHelp {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `beacontop` in the build directory beside the test bundle (`.build/<triple>/debug`), where
    /// `swift test` builds it with the tests.
    static func executable() throws -> URL {
        var candidates = Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("beacontop") }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("beacontop"))
        candidates.append(SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure(description: "beacontop is not built (looked at \(candidates.map(\.path))): run 'swift build' first")
        }
        return found
    }

    /// Standard output of `beacontop help [command]`; throws with its stderr on a non-zero exit.
    static func text(for command: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["help"] + (command.map { [$0] } ?? [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Help is a few kilobytes; reading to EOF before waiting keeps a full pipe from blocking it.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "'beacontop help \(command ?? "")' exited \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The subcommand names listed under `SUBCOMMANDS:` (a default one is shown as `NAME (default)`).
    static func subcommands(inRootHelp help: String) -> [String] {
        entries(in: help, section: "SUBCOMMANDS:").compactMap { line in
            line.split(separator: " ").first.map(String.init)
        }
    }

    /// The long flags a command's help lists under `OPTIONS:`, without `--help` (every command has it).
    static func flags(inCommandHelp help: String) -> Set<String> {
        var flags: Set<String> = []
        for line in entries(in: help, section: "OPTIONS:") where line.hasPrefix("-") {
            // The option's names end at the first run of two spaces, where its description starts.
            let names = line.components(separatedBy: "  ").first ?? line
            flags.formUnion(MarkdownDocument.flags(in: names))
        }
        flags.remove("--help")
        flags.remove("--version")
        return flags
    }

    /// The lines of a help section that start an entry: indented by exactly two spaces (descriptions
    /// that wrap are indented further).
    private static func entries(in help: String, section: String) -> [String] {
        var inSection = false
        var result: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inSection = line == section
                continue
            }
            guard inSection, line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            let entry = line.trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix("See '") { continue }
            result.append(entry)
        }
        return result
    }
}
