import ArgumentParser
import Foundation
import Captures
import HCI
import Monitor
import Ranging
import PacketSources
import Sessions

/// `beacontop monitor [SOURCE]` (and plain `beacontop`): the full-screen ranging monitor.
struct MonitorSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "The live ranging monitor (the default command): a table of beacons, nearest exhibit highlighted.",
        discussion: """
            SOURCE is a source spec (hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, \
            unix:PATH, a capture file or advertisement script), sim:CATALOG (a simulated visitor walking \
            past the catalog's beacons) or mqtt://BROKER (a venue's scanners: each beacon once, with its room; \
            docs/venue.md). Keys: q quits, ? lists every key (docs/screen.md "Keys").
            """
    )

    @Argument(help: "The source spec, or sim:CATALOG.") var source: String = "hci0"
    @Option(help: "The exhibit catalog (YAML): names, descriptions, calibration overrides.") var exhibits: String?
    @Option(help: "The ranging filter: adaptive, running-average, arma, kalman, iqm.") var filter: String = "adaptive"
    @Option(help: "Also write every packet to this btsnoop file (Wireshark reads it; replay it as a source). A file holding bytes is refused.") var record: String?
    @Option(help: "Write every beacon's readings at every tick to this CSV file (replaced if it exists; x starts and stops an export).") var export: String?
    // Optional, its default applied in `replaySpeed`: with a default, a --speed given on a radio or a
    // broker could not be told from none and was ignored without a word.
    @Option(help: "Replay (and sim:) speed: 0.25 to 100, or max for a replay (default 1).") var speed: String?
    @Flag(help: "Replay: start over at the end.") var loop = false
    @Option(parsing: .unconditional, help: "Replay: start this many seconds after the capture's first packet.") var from: Double?
    @Option(parsing: .unconditional, help: "Replay: stop this many seconds after the capture's first packet.") var to: Double?
    @Flag(help: "Active scanning (send scan requests).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?
    @Option(help: "sim: the seed of the simulated walk.") var seed: UInt64 = 1
    @OptionGroup var broker: BrokerOptions

    func validate() throws {
        // Named as the flag, as scan, replay and report name it (it said `filter: unknown filter`).
        do { _ = try RSSIFilterKind(name: filter) } catch { throw ValidationError("--filter: \(error.reason)") }
        let replaySpeed: ReplaySpeed
        do { replaySpeed = try self.replaySpeed() } catch { throw ValidationError(error.description) }
        if let problem = ReplayOptions.windowProblem(from: from, to: to) { throw ValidationError(problem) }
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        if let problem = ReplayOptions.speedProblem(replaySpeed, source: spec) { throw ValidationError(problem) }
        if let problem = ReplayOptions.sourceProblem(from: from, to: to, speedGiven: speed != nil, loop: loop, source: spec) {
            throw ValidationError(problem)
        }
        if let problem = broker.readOnlyProblem(source: spec) { throw ValidationError(problem) }
        _ = try scanTiming()
    }

    /// `--speed`, or real time when it is not given.
    func replaySpeed() throws(SourceSpecError) -> ReplaySpeed { try ReplaySpeed(parsing: speed ?? "1") }

    /// The scan timing the options name. validate() refuses one out of range as scan does, a usage
    /// error (status 64) before anything opens: it was found after the source opened (status 1),
    /// and not at all on a capture.
    func scanTiming() throws -> LEScanTiming {
        do { return try LEScanTiming(intervalMilliseconds: interval, windowMilliseconds: window ?? interval) }
        catch { throw ValidationError("\(error.field): \(error.reason)") }
    }

    /// The command a missing file's name misspells (`beacontop dmeo`), else nil.
    private func misspeltCommand(_ spec: SourceSpec) -> String? {
        guard case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) else { return nil }
        return CommandNameSuggestion.command(misspeltAs: path, among: BeacontopCommand.commandNames)
    }

    func run() async throws {
        let catalog = exhibits.map { path -> ExhibitCatalog in
            do { return try SourceOpening.catalog(path) } catch { MonitorRunner.fail("\(error)") }
        }
        var configuration = RangingConfiguration()
        configuration.filter = (try? RSSIFilterKind(name: filter)) ?? .adaptive
        let replaySpeed = (try? self.replaySpeed()) ?? .factor(1)
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { MonitorRunner.fail(error.description) }
        if let name = misspeltCommand(spec) {
            MonitorRunner.fail("\(CaptureError.cannotOpen(path: source, reason: String(cString: strerror(ENOENT)))); did you mean `beacontop \(name)`?")
        }
        let inputs = InputOverwriteGuard.inputs(of: spec, catalog: exhibits)
        for (flag, output) in [("--record", record), ("--export", export)] {
            if let output, let refusal = InputOverwriteGuard.refusal(output: output, flag: flag, inputs: inputs) {
                throw MonitorRunner.usageError(refusal)
            }
        }
        // A usage error, as survey's existing survey.ndjson: the recording there is never written over.
        if let record, let refusal = RecordingFileCreation.refusal(path: record, flag: "--record") {
            throw MonitorRunner.usageError(refusal)
        }
        let opening: SourceOpening
        do {
            opening = try SourceOpening(
                spec: spec, replay: ReplayOptions(speed: replaySpeed, loop: loop, from: from, to: to, holdAtEnd: true), seed: seed, brokerSettings: broker.settings
            )
        } catch {
            MonitorRunner.fail("\(error)")
        }
        var scanning: ScanOptions?
        if opening.controller != nil {
            let timing = try scanTiming()
            var resetFirst = true
            if case .kernel(_, .raw) = spec { resetFirst = false }
            scanning = ScanOptions(type: active ? .active : .passive, timing: timing, resetFirst: resetFirst)
        }
        var catalogPath = exhibits
        if catalogPath == nil, case .simulation(let path) = spec { catalogPath = path }
        try await MonitorRunner.run(MonitorRunner.Setup(
            opening: opening, catalog: catalog ?? opening.simulatedCatalog, catalogPath: catalogPath,
            configuration: configuration, speed: replaySpeed, record: record, scanning: scanning, export: export,
            readOnly: broker.readOnly
        ))
    }
}
