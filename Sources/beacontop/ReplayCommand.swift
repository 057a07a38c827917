import ArgumentParser
import Foundation
import NDJSON
import Ranging
import Sessions
import Survey

/// `beacontop replay FILE --json`: ranges a recording and writes one NDJSON line per tick of
/// capture time (docs/formats.md "NDJSON tick lines"). Headless; the interactive replay belongs to the monitor.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Range a capture file and write NDJSON ranging ticks (headless).",
        discussion: """
            Reads btsnoop, pcap or pcapng (a venue recording gives NDJSON venue lines); every tick \
            (default 1 s of capture time) writes one JSON line: t, beacons nearest first (the nearest \
            exhibit's, then by distance; id, kind, rssi, filteredRssi, accuracy, accuracyRange, proximity, \
            measuredPower, packets, ...), nearest and region events. \
            Malformed packets are counted and reported on stderr. Exit status: 0 done, 1 the file or \
            catalog cannot be read, 2 reading stopped at a corrupt header (the ticks before it were written), \
            64 a usage error (no --json, a speed other than max).
            """
    )

    @Argument(help: "The capture file: btsnoop, pcap or pcapng, or a venue recording (NDJSON venue lines).") var file: String
    @Flag(help: "Write NDJSON ranging ticks to standard output (required: the interactive replay is the monitor's).") var json = false
    @OptionGroup var ranging: RangingOptions
    @Flag(help: "Add each beacon's health (TLM, interval, loss, findings, duplicates) and duplicate and address-rotated events to the ticks.") var health = false
    @Option(help: "Replay speed: only `max` (as fast as possible) is supported here.") var speed = "max"

    func validate() throws {
        guard json else { throw ValidationError("replay without --json is the interactive monitor; use --json for NDJSON ticks") }
        guard speed == "max" else { throw ValidationError("--speed \(speed): only `max` is supported by the headless replay") }
    }

    func run() throws {
        if VenueRecording.looksLikeRecording(path: file) {
            // A venue recording: the venue view's NDJSON lines, as `scan mqtt://` printed them.
            var output = StandardOutput()
            let scan: VenueScan
            do {
                scan = try VenueReplay.run(path: file, catalog: try ranging.catalog(), stopped: { output.closed }) { lines in
                    output.write(lines.bytes)
                    lines.removeAll()
                }
            } catch {
                StandardError.report("\(error)")
                throw ExitCode(1)
            }
            try output.finish()
            if let refused = scan.refusedSummary { StandardError.report(refused) }
            return
        }
        var pipeline = try ranging.makePipeline()
        var output = StandardOutput()
        var writer = JSONWriter(capacity: 1 << 16)
        var healthLines = health ? HealthTickLines(catalog: pipeline.engine.catalog) : nil
        let outcome = CaptureReplay.run(path: file, pipeline: &pipeline, health: &healthLines, stopped: { output.closed }) { snapshot, extras in
            if let extras {
                TickLineEncoder.appendLine(snapshot, extras: extras, to: &writer)
            } else {
                TickLineEncoder.appendLine(snapshot, to: &writer)
            }
            output.write(writer.bytes)
            writer.removeAll()
        }
        try output.finish()
        outcome.reportFailure()
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}

/// The ranging flags `replay` and `report` share.
struct RangingOptions: ParsableArguments {
    @Option(name: .customLong("exhibits"), help: "Exhibit catalog (YAML): names, calibration, regions.") var exhibits: String?
    @Option(help: "Seconds of capture time between ticks.") var tick = 1.0
    @Option(help: "RSSI filter: adaptive (default), running-average, arma, kalman, iqm.") var filter = "adaptive"

    func validate() throws {
        guard tick >= BeaconPipeline.shortestTickInterval, tick <= BeaconPipeline.longestTickInterval else {
            throw ValidationError(
                "--tick must be a number of seconds from \(BeaconPipeline.shortestTickInterval) to \(Int(BeaconPipeline.longestTickInterval))")
        }
        do { _ = try RSSIFilterKind(name: filter) } catch { throw ValidationError("--filter: \(error.reason)") }
    }

    /// The `--exhibits` catalog, nil without one; an unreadable one is one line and exit 1.
    func catalog() throws -> ExhibitCatalog? {
        guard let exhibits else { return nil }
        do { return try ExhibitCatalog(path: exhibits) } catch {
            StandardError.report(error is CatalogFileError ? "\(error)" : "\(exhibits): \(error)")
            throw ExitCode(1)
        }
    }

    /// - Parameter tickAtMost: a scanner agent's publish interval: ticks at least that often.
    func makePipeline(tickAtMost: Double? = nil) throws -> BeaconPipeline {
        try makePipeline(catalog: try catalog(), tickAtMost: tickAtMost)
    }

    /// With the catalog already read (`scan` reads it before its radio starts).
    func makePipeline(catalog: ExhibitCatalog?, tickAtMost: Double? = nil) throws -> BeaconPipeline {
        var configuration = RangingConfiguration()
        configuration.filter = try RSSIFilterKind(name: filter)
        return BeaconPipeline(engine: RangingEngine(configuration: configuration, catalog: catalog), tickInterval: min(tick, tickAtMost ?? tick))
    }
}
