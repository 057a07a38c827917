import ArgumentParser
import Foundation
import HCI
import PacketSources
import Ranging
import Sessions
import Venue

/// `beacontop scan SOURCE`: headless scanning: NDJSON ranging ticks with `--json` (the same lines as
/// `replay --json`, docs/formats.md "NDJSON tick lines"), or one line per beacon frame (`--frames`, or text).
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a source (hci0, serial:, tcp:, unix:, or a capture file) headless: NDJSON ranging ticks, or each beacon frame."
    )

    @Argument(help: "The source spec: hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, unix:PATH, mqtt://BROKER (a venue's scanners: NDJSON venue lines), or a capture file.")
    var source: String

    @Flag(help: "Print NDJSON: one ranging tick per second of capture time (with --frames: one object per beacon frame).") var json = false
    @Flag(help: "One line per beacon frame instead of ranging ticks.") var frames = false
    @OptionGroup var ranging: RangingOptions
    @Option(help: "Stop after this many seconds.") var duration: Double?
    @Flag(help: "Active scanning (send scan requests; receives scan responses).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?
    @Option(help: "Also write every packet to this btsnoop file (Wireshark reads it; replay it as a source).") var record: String?
    @Option(help: "Replay speed: 0.25 to 100, or max (the default for a headless replay).") var speed: String = "max"
    @Flag(help: "Replay: start over at the end.") var loop = false
    @Option(help: "Replay: start this many seconds after the capture's first packet.") var from: Double?
    @Option(help: "Replay: stop this many seconds after the capture's first packet.") var to: Double?
    @OptionGroup var broker: BrokerOptions

    /// Checks every option before anything opens, so a mistake prints this command's usage.
    func validate() throws {
        _ = try parsed()
    }

    /// The spec, scan timing and replay speed the options name, or the first that is wrong.
    func parsed() throws -> (spec: SourceSpec, timing: LEScanTiming, speed: ReplaySpeed) {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        let timing: LEScanTiming
        do { timing = try LEScanTiming(intervalMilliseconds: interval, windowMilliseconds: window ?? interval) }
        catch { throw ValidationError("\(error.field): \(error.reason)") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        let replaySpeed: ReplaySpeed
        do { replaySpeed = try ReplaySpeed(parsing: speed) } catch { throw ValidationError(error.description) }
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
        return (spec, timing, replaySpeed)
    }

    func run() async throws {
        let (spec, timing, replaySpeed) = try parsed()
        let opening: SourceOpening
        do {
            opening = try SourceOpening(
                spec: spec, replay: ReplayOptions(speed: replaySpeed, loop: loop, from: from, to: to), record: record,
                brokerSettings: broker.settings
            )
        } catch {
            StandardError.report("\(error)")
            throw ExitCode(1)
        }
        let source = opening.source
        let inbox = SourceInbox(capacity: 65_536, wakeThreshold: 1)
        let stop = StopSignal()
        stop.catchTerminationSignals()
        do { try source.start(into: inbox) } catch {
            StandardError.report("\(error)")
            throw ExitCode(1)
        }

        var resetFirst = true
        if case .kernel(_, .raw) = spec { resetFirst = false }
        let options = ScanOptions(type: active ? .active : .passive, timing: timing, resetFirst: resetFirst)
        var mode: ScanMode?
        if let live = opening.controller {
            do {
                mode = try await ScanProcedure.start(on: live, options: options)
                if let mode { live.setCrashStop(ScanProcedure.disable(mode)) }
            } catch {
                StandardError.report("\(error)")
                source.stop()
                throw ExitCode(1)
            }
            live.onReconnect { await ScanProcedure.restart(on: live, options: options) }
        }
        if let duration { stop.trigger(after: duration) }

        let scanMode: HeadlessScan.Mode
        if let broker = opening.broker, let topics = opening.venueTopics {
            // A venue: the view's lines (always NDJSON), its events and occupancy published back.
            let catalog = try ranging.exhibits.map { path in
                do { return try SourceOpening.catalog(path) } catch {
                    StandardError.report("\(error)")
                    source.stop()
                    throw ExitCode(1)
                }
            }
            let view = VenueView(catalog: catalog, topics: topics)
            scanMode = .venue(VenueScan(view: view, clock: { Date().timeIntervalSince1970 }, publish: { broker.publish($0.message) }))
        } else {
            scanMode = json && !frames ? .ticks(try ranging.makePipeline()) : .frames(json: json)
        }
        let flushEachBatch = spec.isLive
        let consumed = StopSignal()
        let consumer = Thread {
            var scan = HeadlessScan(mode: scanMode, flushEachBatch: flushEachBatch)
            var output = StandardOutput()
            // A closed stdout (`scan | head`) ends the scan cleanly: scanning disabled, exit 0.
            let summary = scan.run(inbox: inbox, output: &output, onOutputClosed: { stop.trigger(.outputClosed) })
            if opening.broker != nil {
                let dropped = summary.droppedPackets > 0 ? " (the output could not keep up)" : ""
                StandardError.report("\(source.name): \(summary.messages) messages, \(summary.droppedPackets) dropped\(dropped)")
            } else if summary.droppedPackets > 0 || flushEachBatch {
                StandardError.report("\(source.name): \(summary.packets) packets, \(summary.droppedPackets) dropped (the output could not keep up)")
            }
            stop.trigger(.sourceEnded)
            consumed.trigger(.sourceEnded)
        }
        consumer.name = "beacontop-scan"
        consumer.start()
        let reason = await stop.wait()
        if let mode, let live = opening.controller, reason != .sourceEnded {
            do {
                try await ScanProcedure.stop(on: live, mode: mode)
                live.setCrashStop(nil)
            } catch {
                StandardError.report("could not disable scanning: \(error)")
            }
        }
        // Stopping ends the source (a live source within one poll interval): the consumer prints
        // and records everything up to the last packet, then says the source ended.
        source.stop()
        _ = await consumed.wait()
        // A venue view published its last events while consuming; now the broker may go.
        opening.broker?.close()
    }
}
