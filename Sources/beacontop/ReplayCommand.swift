import ArgumentParser
import Captures
import BeaconFormats
import Foundation
import HCI
import NDJSON
import Ranging
#if canImport(Glibc)
import Glibc
#endif

/// `beacontop replay FILE --json`: ranges a recording and writes one NDJSON line per tick of
/// capture time (README "NDJSON tick lines"). Headless; the interactive replay belongs to the monitor.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Range a capture file and write NDJSON ranging ticks (headless).",
        discussion: """
            Reads btsnoop, pcap or pcapng; every tick (default 1 s of capture time) writes one JSON line: \
            t, beacons nearest first (id, kind, rssi, filteredRssi, accuracy, accuracyRange, proximity, \
            measuredPower, packets, ...), nearest and region events. Malformed packets are counted and \
            reported on stderr. Exit status: 0 done, 1 the file or catalog cannot be read, 2 reading \
            stopped at a corrupt header (the ticks before it were written).
            """
    )

    @Argument(help: "The capture file: btsnoop, pcap or pcapng.") var file: String
    @Flag(help: "Write NDJSON ranging ticks to standard output (required: the interactive replay is the monitor's).") var json = false
    @OptionGroup var ranging: RangingOptions
    @Option(help: "Replay speed: only `max` (as fast as possible) is supported here.") var speed = "max"

    func validate() throws {
        guard json else { throw ValidationError("replay without --json is the interactive monitor; use --json for NDJSON ticks") }
        guard speed == "max" else { throw ValidationError("--speed \(speed): only `max` is supported by the headless replay") }
    }

    func run() throws {
        var pipeline = try ranging.makePipeline()
        var output = BufferedStandardOutput()
        var writer = JSONWriter(capacity: 1 << 16)
        let status = CaptureReplay.run(path: file, pipeline: &pipeline) { snapshot in
            TickLineEncoder.appendLine(snapshot, to: &writer)
            output.write(writer.bytes)
            writer.removeAll()
        }
        output.flush()
        try status.finish()
    }
}

/// The ranging flags `replay` and `report` share.
struct RangingOptions: ParsableArguments {
    @Option(name: .customLong("exhibits"), help: "Exhibit catalog (YAML): names, calibration, regions.") var exhibits: String?
    @Option(help: "Seconds of capture time between ticks.") var tick = 1.0
    @Option(help: "RSSI filter: adaptive (default), running-average, arma, kalman, iqm.") var filter = "adaptive"

    func validate() throws {
        guard tick > 0, tick.isFinite else { throw ValidationError("--tick must be a positive number of seconds") }
        do { _ = try RSSIFilterKind(name: filter) } catch { throw ValidationError("--filter: \(error.reason)") }
    }

    func makePipeline() throws -> BeaconPipeline {
        var configuration = RangingConfiguration()
        configuration.filter = try RSSIFilterKind(name: filter)
        var catalog: ExhibitCatalog?
        if let exhibits {
            do {
                catalog = try ExhibitCatalog(contentsOf: URL(fileURLWithPath: exhibits))
            } catch {
                BufferedStandardOutput.error("beacontop: \(exhibits): \(error)")
                throw ExitCode(1)
            }
        }
        return BeaconPipeline(engine: RangingEngine(configuration: configuration, catalog: catalog), tickInterval: tick)
    }
}

/// Reads a capture through `CaptureReader` and `BeaconSightingDecoder` (the decode command's fast
/// path) into a `BeaconPipeline`: malformed records and packets are counted (the first few
/// printed), a torn final record ends the file quietly, a corrupt header stops with exit status 2
/// after what came before. Reading and decoding run on a second thread
/// (`BackgroundCaptureDecoder`), ranging and the caller's `onTick` on this one.
enum CaptureReplay {
    struct Status {
        var cannotRead: CaptureError?
        var stoppedBy: CaptureError?

        func finish() throws {
            if let cannotRead {
                BufferedStandardOutput.error("beacontop: \(cannotRead)")
                throw ExitCode(1)
            }
            if let stoppedBy {
                BufferedStandardOutput.error("beacontop: \(stoppedBy); replayed up to there")
                throw ExitCode(2)
            }
        }
    }

    static func run(path: String, pipeline: inout BeaconPipeline, onTick: (RangingSnapshot) -> Void) -> Status {
        let reader: CaptureReader
        do {
            reader = try CaptureReader(path: path)
        } catch {
            return Status(cannotRead: error)
        }
        var status = Status()
        var malformedRecords = 0
        var malformedPackets = 0
        var firstPacketError: DecodeError?
        var end: BackgroundCaptureDecoder.End?
        let decoder = BackgroundCaptureDecoder(reader: reader)
        while let batch = decoder.next() {
            for error in batch.malformedRecords {
                malformedRecords += 1
                if malformedRecords <= 5 { BufferedStandardOutput.error("warning: \(error)") }
            }
            malformedPackets += batch.malformedPackets.count
            if firstPacketError == nil { firstPacketError = batch.malformedPackets.first }
            for packet in 0..<batch.packetCount {
                pipeline.advance(to: batch.packetTimes[packet], onTick: onTick)
                for index in batch.sightingStart[packet]..<batch.sightingStart[packet + 1] {
                    pipeline.record(batch.sightings[index])
                }
            }
            if let last = batch.end { end = last }
        }
        status.stoppedBy = end?.stoppedBy
        pipeline.finish(onTick: onTick)
        if let truncation = end?.truncation {
            BufferedStandardOutput.error("warning: \(path): \(truncation); replayed up to there")
        }
        if let first = firstPacketError {
            BufferedStandardOutput.error("warning: first malformed HCI packet: \(first)")
        }
        BufferedStandardOutput.error("\(end?.recordCount ?? 0) records, \(pipeline.beaconReports) beacon frames ranged, \(malformedPackets + malformedRecords) malformed packets")
        return status
    }
}
