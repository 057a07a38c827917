import ArgumentParser
import Foundation
import Captures
import HCI
import PacketSources
import Ranging
import MQTT
import Sessions
import Survey
import Synchronization
import Venue

/// `beacontop scan SOURCE`: headless scanning: NDJSON ranging ticks with `--json` (the same lines as
/// `replay --json`, docs/formats.md "NDJSON tick lines"), or one line per beacon frame (`--frames`, or text).
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a source (hci0, serial:, tcp:, unix:, sim:, mqtt:// or a capture file) headless: NDJSON ranging ticks, or each beacon frame.",
        discussion: """
            Data goes to standard output, news and errors to standard error. Exit status: 0 the \
            source ended, --duration, SIGINT, SIGTERM, SIGHUP or SIGQUIT, or the reader of the output \
            left; 1 the source, catalog or broker cannot be opened, a controller refused, or standard \
            output failed (a full disk); 2 a replay stopped at a corrupt header field; 64 a usage \
            error, a --record file that holds bytes or is the input, or a --from past the file's end.
            """
    )

    @Argument(help: "The source spec: hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, unix:PATH, sim:CATALOG (a simulated walk), mqtt://BROKER (a venue's scanners: NDJSON venue lines), or a capture file.")
    var source: String

    @Flag(help: "Print NDJSON: one ranging tick per --tick seconds of capture time (with --frames: one object per beacon frame).") var json = false
    @Flag(help: "One line per beacon frame instead of ranging ticks.") var frames = false
    @Flag(help: "With --json ticks: add each beacon's health (TLM, interval, loss, findings, duplicates) and duplicate and address-rotated events.") var health = false
    @OptionGroup var ranging: RangingOptions
    // `.unconditional`: a negative value (`--duration -1`) is the option's value, refused by
    // `parsed()` in words, not argument-parser's "Missing value" for what it took for a flag.
    @Option(parsing: .unconditional, help: "Stop after this many seconds.") var duration: Double?
    @Flag(help: "Active scanning (send scan requests; receives scan responses).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?
    @Option(help: "Also write every packet to this btsnoop file (Wireshark reads it; replay it as a source). A file holding bytes is refused.") var record: String?
    @Option(help: "Replay speed: 0.25 to 100, or max (the default for a file; sim: walks at 1, real time).") var speed: String?
    @Flag(help: "Replay: start over at the end.") var loop = false
    @Option(parsing: .unconditional, help: "Replay: start this many seconds after the capture's first packet.") var from: Double?
    @Option(parsing: .unconditional, help: "Replay: stop this many seconds after the capture's first packet.") var to: Double?
    @Option(help: "Scanner agent: publish this scan's readings to a venue's broker (mqtt://BROKER or mqtts://), with --scanner.") var publish: String?
    @Option(help: "Scanner agent: this scanner's name (its room, for ESPresense consumers): topics espresense/devices/<id>/<NAME> and beacontop/scanners/<NAME>/...") var scanner: String?
    @Option(help: "Scanner agent: publish each beacon at most every S seconds (default 1), sooner, at the next ranging tick (--tick, default 1 s), when its distance moves by more than 0.5 m.") var publishInterval: Double = 1
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
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
        let replaySpeed: ReplaySpeed
        if let speed {
            do { replaySpeed = try ReplaySpeed(parsing: speed) } catch { throw ValidationError(error.description) }
        } else if case .simulation = spec {
            // A walk has no end to run to at `max`: `scan sim:CATALOG` refused to start without --speed.
            replaySpeed = .factor(1)
        } else {
            replaySpeed = .max
        }
        if let problem = ReplayOptions.speedProblem(replaySpeed, source: spec) { throw ValidationError(problem) }
        if let problem = ReplayOptions.windowProblem(from: from, to: to) { throw ValidationError(problem) }
        if let problem = ReplayOptions.sourceProblem(from: from, to: to, speedGiven: speed != nil, loop: loop, source: spec) {
            throw ValidationError(problem)
        }
        if let problem = broker.readOnlyProblem(source: spec) { throw ValidationError(problem) }
        if health && (!json || frames) { throw ValidationError("--health adds to the ranging ticks: use it with --json, without --frames") }
        if let publish {
            guard MQTTEndpoint.isEndpoint(publish) else { throw ValidationError("--publish takes mqtt://BROKER or mqtts://BROKER") }
            do { _ = try MQTTEndpoint(parsing: publish) } catch { throw ValidationError(error.description) }
            guard let scanner, !scanner.isEmpty else { throw ValidationError("--publish needs --scanner NAME (the scanner's room)") }
            guard !scanner.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                throw ValidationError("--scanner must not hold control characters")
            }
            // A venue view refuses names over 256 bytes (VenueMessageDecoder): an agent with a longer
            // one would publish every reading into the void.
            guard scanner.utf8.count <= 256 else {
                throw ValidationError("--scanner is \(scanner.utf8.count) bytes long: a venue view takes names of at most 256 bytes")
            }
            if case .broker = spec { throw ValidationError("--publish needs a radio or a capture as SOURCE, not a broker") }
        } else if scanner != nil {
            throw ValidationError("--scanner names the scanner of --publish; give --publish mqtt://BROKER")
        }
        guard publishInterval >= 0.1, publishInterval.isFinite else { throw ValidationError("--publish-interval must be at least 0.1 s") }
        return (spec, timing, replaySpeed)
    }

    func run() async throws {
        let (spec, timing, replaySpeed) = try parsed()
        if StartingStandardOutput.closed {
            StandardError.report("standard output is closed")
            throw ExitCode(1)
        }
        if let record, let refusal = InputOverwriteGuard.refusal(
            output: record, flag: "--record", inputs: InputOverwriteGuard.inputs(of: spec, catalog: ranging.exhibits)
        ) {
            StandardError.report(refusal)
            throw ExitCode(64)
        }
        if let record, let refusal = RecordingFileCreation.refusal(path: record, flag: "--record") {
            StandardError.report(refusal)
            throw ExitCode(64)
        }
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
        // Until the scan runs, a failure (the source, the controller, the broker or the catalog
        // refused) leaves no --record file: a replay had already copied part of itself into it, and
        // its header made the same command, once the cause was fixed, refuse the name.
        var running = false
        defer { if !running { source.discardRecording() } }
        // Hours of walking with no packet on the way to a far exhibit; refused as simulate refuses it.
        if duration == nil, let problem = opening.tourProblem(durationFlag: true) {
            StandardError.report(problem)
            throw ExitCode(64)
        }
        // Read before the radio starts: read after, a missing or bad catalog ended the scan with
        // the controller left scanning (no disable sent) and an agent's `online` published.
        let usesCatalog = publish != nil || (opening.venueTopics == nil && json && !frames)
        let catalog = usesCatalog ? try ranging.catalog() : nil
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

        var agentClient: AgentPublisher?
        if let publish, let scanner {
            let endpoint = try MQTTEndpoint(parsing: publish)
            // A view knows a scanner by its topic level: say what the name became there, since 'a/b'
            // and 'a_b' would publish as one scanner.
            let level = VenueTopics.level(scanner)
            if level != scanner {
                StandardError.report("--scanner '\(scanner)' is '\(level)' in the topics ('/', '+' and '#' are MQTT's): venue views show that name")
            }
            let agent = ScannerAgent(
                scanner: scanner, topics: VenueTopics(prefix: endpoint.prefix), policy: PublishPolicy(interval: publishInterval),
                startedAt: Date().timeIntervalSince1970
            )
            do {
                let publisher = try AgentPublisher(agent: agent, endpoint: endpoint, settings: broker.settings)
                if let failure = publisher.connect(timeout: broker.settings.connectTimeout) {
                    _ = publisher.stop(drainTimeout: 0)
                    throw MQTTClientError(failure.description)
                }
                agentClient = publisher
            } catch {
                StandardError.report("\(error)")
                await stopRadio(opening: opening, mode: mode)
                source.stop()
                throw ExitCode(1)
            }
        }

        let scanMode: HeadlessScan.Mode
        if let agentClient {
            // The agent ranges at least as often as it may publish.
            let pipeline = try ranging.makePipeline(catalog: catalog, tickAtMost: publishInterval)
            // A live radio's quiet spells are timed by the wall clock, as its packets are.
            let clock: (@Sendable () -> Double)? = spec.isLive ? SourceInbox.wallClock : nil
            scanMode = .agent(pipeline, agentClient, printTicks: json && !frames, clock: clock)
        } else if let topics = opening.venueTopics {
            // A venue: the view's lines (always NDJSON), its events and occupancy published back.
            let catalog = try ranging.exhibits.map { path in
                do { return try SourceOpening.catalog(path) } catch {
                    StandardError.report("\(error)")
                    source.stop()
                    throw ExitCode(1)
                }
            }
            let view = VenueView(catalog: catalog, topics: topics)
            // Live: the view's clock runs on when the broker is quiet, and it publishes back, unless
            // --read-only. A recording replays on its own times and publishes nothing.
            var clock: (@Sendable () -> Double)?
            if opening.broker != nil { clock = SourceInbox.wallClock }
            let publisher = broker.readOnly ? nil : opening.broker
            let publish: @Sendable (VenueOutgoing) -> Void = { outgoing in publisher?.publish(outgoing.message) }
            scanMode = .venue(VenueScan(view: view, clock: clock, publish: publish))
        } else {
            scanMode = json && !frames ? .ticks(try ranging.makePipeline(catalog: catalog)) : .frames(json: json)
        }
        let healthLines: HealthTickLines?
        if health, case .ticks(let pipeline) = scanMode {
            healthLines = HealthTickLines(catalog: pipeline.engine.catalog)
        } else {
            healthLines = nil
        }
        // A paced replay (`--speed 1`) is read like a radio, in time: its lines go out as they are
        // ticked, or `scan FILE --speed 1 | jq` saw nothing until 64 KiB had piled up (17 s of the
        // museum walk) and `| head -1` ran on that long. At `max` the 64 KiB writes are the speed.
        let flushEachBatch = spec.isLive || replaySpeed != .max
        let consumed = StopSignal()
        let pastTheEnd = Mutex(false)
        let unreadable = Mutex(false)
        let consumer = Thread {
            var scan = HeadlessScan(mode: scanMode, flushEachBatch: flushEachBatch, health: healthLines)
            // Stopped (a signal, --duration), a write gives up on a reader that stopped reading: the
            // scan waited on it for ever, SIGTERM and all.
            var output = StandardOutput(stopped: { stop.reason != nil })
            // A closed stdout (`scan | head`) ends the scan cleanly: scanning disabled, exit 0.
            let summary = scan.run(inbox: inbox, output: &output, onOutputClosed: { stop.trigger(.outputClosed) })
            // Why packets were dropped only when some were: every live scan's last line said `0
            // dropped (the output could not keep up)`, a false alarm for a script grepping for it.
            let dropped = summary.droppedPackets > 0 ? " (the output could not keep up)" : ""
            if opening.broker != nil {
                StandardError.report("\(source.name): \(summary.messages) messages, \(summary.droppedPackets) dropped\(dropped)")
            } else if summary.droppedPackets > 0 || spec.isLive {
                StandardError.report("\(source.name): \(summary.packets) packets, \(summary.droppedPackets) dropped\(dropped)")
            }
            if let problem = output.problem { StandardError.report(problem) }
            pastTheEnd.withLock { $0 = summary.pastTheEnd }
            unreadable.withLock { $0 = summary.unreadable }
            stop.trigger(.sourceEnded)
            consumed.trigger(output.problem == nil ? .sourceEnded : .outputFailed)
        }
        consumer.name = "beacontop-scan"
        running = true
        consumer.start()
        let reason = await stop.wait()
        if reason != .sourceEnded { await stopRadio(opening: opening, mode: mode) }
        // Stopping ends the source (a live source within one poll interval): the consumer prints
        // and records everything up to the last packet, then says the source ended.
        source.stop()
        let consumerEnd = await consumed.wait()
        // A venue view published its last events while consuming; now the broker may go.
        if let broker = opening.broker { VenueBrokerClosing.close(broker) }
        // The agent says it is offline on every exit that gets here (signals, --duration, the
        // source's end, a closed output), after the radio stopped and the last tick went out.
        if let agentClient {
            StandardError.report(AgentPublisher.summary(agentClient.stop(), broker: agentClient.client.options.endpoint.description))
        }
        if consumerEnd == .outputFailed { throw ExitCode(1) }
        // Nothing replayed for a window past the end: a usage error found only by reading the file.
        if pastTheEnd.withLock({ $0 }) {
            // Nothing was replayed, so nothing was recorded: the header alone made the same command,
            // with its --from corrected, refuse the --record name.
            source.discardRecording()
            throw ExitCode(64)
        }
        // A replay stopped at a corrupt header field: what came before was written, as `replay`'s 2.
        if unreadable.withLock({ $0 }) { throw ExitCode(2) }
    }

    /// Disables scanning on a live controller (the radio stops on every exit).
    private func stopRadio(opening: SourceOpening, mode: ScanMode?) async {
        guard let mode, let live = opening.controller else { return }
        // A retry of a refused restart must not enable scanning after this disable.
        await live.endRestarts()
        do {
            try await ScanProcedure.stop(on: live, mode: mode)
            live.setCrashStop(nil)
        } catch TransportError.closed {
            StandardError.report(TransportError.notConnectedAtExit(live.name, "scanning"))
        } catch {
            StandardError.report("could not disable scanning: \(error)")
        }
    }
}
