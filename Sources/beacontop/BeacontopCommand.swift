import ArgumentParser
import Glibc
import Sessions

/// The `beacontop` command line: argument parsing and wiring, nothing else.
@main
struct BeacontopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacontop",
        abstract: "A terminal beacon ranging monitor: iBeacon, AltBeacon and Eddystone, live or replayed.",
        subcommands: [
            DecodeCommand.self, ReplayCommand.self, ReportCommand.self, ScanCommand.self, AdvertiseCommand.self,
            SimulateCommand.self, MonitorSubcommand.self, DemoCommand.self, SurveyCommand.self,
        ],
        defaultSubcommand: MonitorSubcommand.self
    )

    /// The subcommands' names (`monitor`, `scan`, ...): what a misspelt word is matched against.
    static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }

    static func main() async {
        StartingStandardOutput.closed = fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = commandNames + ["help"]
        if let problem = HelpTopic.unknown(in: arguments, commands: commands) {
            StandardError.report(problem)
            Glibc.exit(64)
        }
        await main(arguments)
    }
}

/// Whether standard output was closed when the process started (`scan >&-`), asked first thing:
/// once anything opens a file it takes descriptor 1, and the scan's lines went there or failed
/// (`write failed: Invalid argument`).
enum StartingStandardOutput {
    nonisolated(unsafe) static var closed = false
}
