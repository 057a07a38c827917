import ArgumentParser

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
}
