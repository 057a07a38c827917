import BeaconFormats
import Captures
import HCI
import NDJSON
import PacketSources
import Ranging
import Survey
import Venue

/// The consumer behind `scan`: takes the source's batches from its inbox until the source ends,
/// and prints either ranging ticks (NDJSON, the same lines `replay --json` prints) or one line per
/// beacon frame (NDJSON or text), with the source's notices on standard error. Packets go through
/// the one sighting decoder; sightings a source decoded elsewhere are taken as they are.
public struct HeadlessScan {
    public enum Mode: Sendable {
        /// One NDJSON tick line per tick of capture time.
        case ticks(BeaconPipeline)
        /// One line per beacon frame: NDJSON, or aligned text.
        case frames(json: Bool)
        /// Nothing on standard output, only the source's notices (`advertise`).
        case noticesOnly
        /// A venue's broker messages into a venue view: one NDJSON venue line per second of
        /// receive time (`VenueTickLine`), what the view publishes handed to `publish`.
        case venue(VenueScan)
        /// Ranging ticks published by a scanner agent (`--publish`), printed too when `printTicks`.
        /// A live radio's agent has a `clock` (the wall's, as its packets' times): while the radio
        /// is quiet its ticks and telemetry go on by it. A replay's agent runs on capture time only.
        case agent(BeaconPipeline, AgentPublisher, printTicks: Bool, clock: (@Sendable () -> Double)?)
    }

    /// What the scan saw besides its output.
    public struct Summary: Sendable, Equatable {
        public var packets = 0
        public var malformed = 0
        public var droppedPackets = 0
        /// Broker messages taken in, and those the venue view refused (malformed, hostile).
        public var messages = 0
        public var refusedMessages = 0
        /// The replay ended with nothing replayed: `--from` lies past the file's end.
        public var pastTheEnd = false
        /// The replay stopped at what it cannot read (a corrupt header field): `scan` exits 2.
        public var unreadable = false
    }

    /// Ranging ticks when set; frame lines otherwise.
    private var pipeline: BeaconPipeline?
    /// Health fields and events in the ticks (`--health`).
    private var health: HealthTickLines?
    private var venue: VenueScan?
    private var agent: AgentPublisher?
    private var agentClock: (@Sendable () -> Double)?
    private var packetsBeforeWait = 0
    private var printTicks = true
    private let json: Bool
    private let printsPackets: Bool
    /// Flush standard output after every batch (a live source or a paced replay: whoever reads the
    /// pipe sees each packet as it comes); a replay at `max` fills 64 KiB writes instead.
    private let flushEachBatch: Bool
    private var decoder = BeaconSightingDecoder()
    private var writer = JSONWriter(capacity: 1 << 16)
    private var summary = Summary()
    private var firstMalformation: DecodeError?
    private var lastMalformation: DecodeError?
    private var lost = false
    private var lastReconnectReason: String?

    /// `health` adds beacon health to the tick lines (`scan --json --health`); frame lines ignore it.
    public init(mode: Mode, flushEachBatch: Bool, health: HealthTickLines? = nil) {
        self.health = health
        switch mode {
        case .ticks(let pipeline):
            self.pipeline = pipeline
            json = true
        case .frames(let json):
            self.json = json
        case .noticesOnly:
            json = false
        case .venue(let venue):
            self.venue = venue
            json = true
        case .agent(let pipeline, let agent, let printTicks, let clock):
            self.pipeline = pipeline
            self.agent = agent
            agentClock = clock
            self.printTicks = printTicks
            json = true
        }
        if case .noticesOnly = mode { printsPackets = false } else { printsPackets = true }
        self.flushEachBatch = flushEachBatch
    }

    /// Consumes `inbox` until its source ends, writing to `output`; then prints the last tick and
    /// what was skipped, and returns the totals. When `output` closes (its reader went away),
    /// `onOutputClosed` is called once, so the caller can stop the source; the notices up to the
    /// source's end are still printed on standard error.
    public mutating func run(inbox: SourceInbox, output: inout StandardOutput, onOutputClosed: () -> Void = {}) -> Summary {
        var closed = false
        while true {
            let contents = inbox.take()
            for batch in contents.batches {
                for event in batch.events { handle(event, output: &output) }
                output.write(writer.bytes)
                writer.removeAll()
                if flushEachBatch { output.flush() }
                if output.closed && !closed {
                    closed = true
                    onOutputClosed()
                }
            }
            summary.droppedPackets = contents.droppedPackets
            if contents.ended { break }
            if venue != nil { idleVenueTick(output: &output) }
            // Only after a wait with no packet: while packets come, they move the clock.
            if let agentClock, summary.packets > 0, summary.packets == packetsBeforeWait {
                idleAgentTick(at: agentClock() - Self.deliveryMargin, output: &output)
            }
            packetsBeforeWait = summary.packets
            inbox.waitForEvents(timeout: 1)
        }
        finish(output: &output)
        return summary
    }

    private mutating func handle(_ event: SourceEvent, output: inout StandardOutput) {
        switch event {
        case .packet(let packet):
            summary.packets += 1
            guard printsPackets else { return }
            do throws(DecodeError) {
                if agent != nil {
                    try Self.range(packet, pipeline: &pipeline!, decoder: &decoder, lines: &writer, agent: &agent!, printTicks: printTicks)
                } else if pipeline != nil {
                    try Self.range(packet, pipeline: &pipeline!, health: &health, decoder: &decoder, lines: &writer)
                } else {
                    try Self.frames(packet, json: json, decoder: &decoder, lines: &writer)
                }
            } catch {
                summary.malformed += 1
                if firstMalformation == nil { firstMalformation = error }
                lastMalformation = error
            }
        case .sighting(let sighting, _):
            guard printsPackets else { return }
            if agent != nil {
                pipeline!.advance(to: sighting.timestamp) { Self.tick($0, lines: &writer, agent: &agent!, printTicks: printTicks) }
                pipeline!.record(sighting)
            } else if pipeline != nil {
                Self.range(sighting, pipeline: &pipeline!, health: &health, lines: &writer)
            } else {
                Self.append(sighting, json: json, to: &writer)
            }
        case .brokerMessage(let message):
            summary.messages += 1
            venue?.receive(message, lines: &writer)
        case .notice(let notice):
            switch notice {
            // `.sought`: where a `--loop` pass starts again, for the monitor's event log.
            case .connected where !lost, .recordingStarted, .recordingStopped, .sought:
                return
            case .unreadable:
                // The `.ended` right after it says why; this only sets the exit status.
                summary.unreadable = true
                return
            default:
                break
            }
            // A controller away for a night retries every 10 s: one line per attempt was 360 an
            // hour in a scanner node's journal. Each reason is said once per outage.
            var line = "\(notice)"
            if case .lost = notice { lastReconnectReason = nil }
            if case .reconnecting(_, _, _, let reason) = notice {
                guard reason != lastReconnectReason else { return }
                lastReconnectReason = reason
                line += "; said again only if the reason changes"
            }
            output.write(writer.bytes)
            writer.removeAll()
            // At each end of a pass (a loop's too): a pass may have written nothing to fail on.
            if case .ended = notice { output.checkReaderGone() } else { output.flush() }
            StandardError.report(line)
            noteRadio(notice)
            if case .lost = notice { lost = true }
            if case .pastTheEnd = notice { summary.pastTheEnd = true }
            if case .connected = notice {
                lost = false
                lastReconnectReason = nil
            }
        }
    }

    /// A scanner agent says in its telemetry whether its radio hears: lost with the controller (or
    /// when the controller came back and refused to scan), ok once it scans again.
    private mutating func noteRadio(_ notice: SourceNotice) {
        guard agent != nil else { return }
        let time = agentClock.map { $0() - Self.deliveryMargin }
        switch notice {
        case .lost(_, let reason): agent!.radio(.lost(reason: reason), at: time)
        case .restartFailed(_, let message, _): agent!.radio(.lost(reason: message), at: time)
        case .connected, .restarted: agent!.radio(.ok, at: time)
        default: break
        }
    }

    /// The ticks due before `packet`, then its sightings ranged.
    private static func range(
        _ packet: HCIPacket, pipeline: inout BeaconPipeline, health: inout HealthTickLines?, decoder: inout BeaconSightingDecoder,
        lines: inout JSONWriter
    ) throws(DecodeError) {
        pipeline.advance(to: packet.timestamp) { tick($0, health: &health, lines: &lines) }
        if health == nil {
            try decoder.decode(packet) { pipeline.record($0) }
        } else {
            try decoder.decode(packet) { sighting in
                health!.observe(sighting)
                pipeline.record(sighting)
            }
        }
    }

    /// The same for a scanner agent: each tick published, and printed when asked.
    private static func range(
        _ packet: HCIPacket, pipeline: inout BeaconPipeline, decoder: inout BeaconSightingDecoder, lines: inout JSONWriter,
        agent: inout AgentPublisher, printTicks: Bool
    ) throws(DecodeError) {
        pipeline.advance(to: packet.timestamp) { tick($0, lines: &lines, agent: &agent, printTicks: printTicks) }
        // Ticks pause while no beacon is heard, packets from other devices or not: telemetry
        // goes on by the packets' clock (a replay's too).
        agent.idle(at: packet.timestamp, tickInterval: pipeline.tickInterval)
        try decoder.decode(packet) { pipeline.record($0) }
    }

    private static func tick(_ snapshot: RangingSnapshot, lines: inout JSONWriter, agent: inout AgentPublisher, printTicks: Bool) {
        agent.publish(snapshot)
        if printTicks { TickLineEncoder.appendLine(snapshot, to: &lines) }
    }

    private static func range(_ sighting: BeaconSighting, pipeline: inout BeaconPipeline, health: inout HealthTickLines?, lines: inout JSONWriter) {
        pipeline.advance(to: sighting.timestamp) { tick($0, health: &health, lines: &lines) }
        health?.observe(sighting)
        pipeline.record(sighting)
    }

    private static func tick(_ snapshot: RangingSnapshot, health: inout HealthTickLines?, lines: inout JSONWriter) {
        if health == nil {
            TickLineEncoder.appendLine(snapshot, to: &lines)
        } else {
            TickLineEncoder.appendLine(snapshot, extras: health!.extras(at: snapshot.time), to: &lines)
        }
    }

    private static func finishTicks(pipeline: inout BeaconPipeline, health: inout HealthTickLines?, lines: inout JSONWriter) {
        pipeline.finish { tick($0, health: &health, lines: &lines) }
    }

    private static func frames(
        _ packet: HCIPacket, json: Bool, decoder: inout BeaconSightingDecoder, lines: inout JSONWriter
    ) throws(DecodeError) {
        try decoder.decode(packet) { append($0, json: json, to: &lines) }
    }

    private static func append(_ sighting: BeaconSighting, json: Bool, to lines: inout JSONWriter) {
        if json {
            BeaconFrameLine.append(sighting, to: &lines)
        } else {
            for byte in BeaconFrameText.compact(sighting).utf8 { lines.byte(byte) }
        }
    }

    /// A live broker that went quiet still moves the venue's clock: readings expire, scanners
    /// fall silent, and the lines go on once a second.
    private mutating func idleVenueTick(output: inout StandardOutput) {
        venue!.idle(lines: &writer)
        output.write(writer.bytes)
        writer.removeAll()
        if flushEachBatch { output.flush() }
    }

    /// How far behind the wall clock a quiet radio's agent ticks: a packet read just before the
    /// clock was read, and delivered just after, is still ranged before its tick.
    static let deliveryMargin = 0.5

    /// A live radio that fell quiet (a lost dongle, an empty room) still moves the agent's clock:
    /// readings go stale and telemetry goes out every 10 s on time, rather than the whole silence
    /// being ranged, and published late as a burst of old readings, when the next packet comes.
    private mutating func idleAgentTick(at time: Double, output: inout StandardOutput) {
        let printTicks = printTicks
        pipeline!.advance(to: time) { Self.tick($0, lines: &writer, agent: &agent!, printTicks: printTicks) }
        agent!.idle(at: time, tickInterval: pipeline!.tickInterval)
        output.write(writer.bytes)
        writer.removeAll()
        if flushEachBatch { output.flush() }
    }

    /// The agent, with what it published so far (the command stops its client after the scan).
    public var publisher: AgentPublisher? { agent }

    private mutating func finish(output: inout StandardOutput) {
        if agent != nil {
            let printTicks = printTicks
            // Stamped at the real end (the radio is stopped and its packets taken: the wall clock
            // now, or a replay's last packet), so its rate is over the time it covers.
            pipeline!.finish(at: agentClock?()) { Self.tick($0, lines: &writer, agent: &agent!, printTicks: printTicks) }
        } else if pipeline != nil { Self.finishTicks(pipeline: &pipeline!, health: &health, lines: &writer) }
        if venue != nil {
            venue!.finish(lines: &writer)
            summary.refusedMessages = venue!.view.refusedTotal
            if let refused = venue!.refusedSummary { StandardError.report(refused) }
        }
        output.write(writer.bytes)
        writer.removeAll()
        output.flush()
        if pipeline != nil, let first = firstMalformation {
            StandardError.report("\(summary.malformed) malformed packets skipped (first: \(first))")
        } else if pipeline == nil, let last = lastMalformation {
            StandardError.report("\(summary.malformed) malformed packets skipped (last: \(last))")
        }
    }
}
