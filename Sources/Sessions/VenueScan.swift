import MQTT
import NDJSON
import PacketSources
import Venue

/// The venue view behind `scan mqtt://BROKER --json` (and a venue recording's replay): broker
/// messages in at their receive times, one NDJSON venue line per second of that clock, and what
/// the view publishes (visit events with QoS 1, retained occupancy) handed to `publish`.
public struct VenueScan: Sendable {
    public private(set) var view: VenueView
    private let publish: @Sendable (VenueOutgoing) -> Void
    /// The wall clock for a live broker that has gone quiet; nil for a recording (its own time only).
    private let clock: (@Sendable () -> Double)?
    private var nextTick: Double?
    private var lastTime: Double?

    public init(view: VenueView, clock: (@Sendable () -> Double)?, publish: @escaping @Sendable (VenueOutgoing) -> Void) {
        self.view = view
        self.clock = clock
        self.publish = publish
    }

    public mutating func receive(_ message: BrokerMessage, lines: inout JSONWriter) {
        advance(to: message.receivedAt, lines: &lines)
        for outgoing in view.receive(topic: message.topic, payload: message.payload, at: message.receivedAt, retained: message.retained) { publish(outgoing) }
    }

    /// Ticks on the wall clock when the broker is quiet (live only).
    public mutating func idle(lines: inout JSONWriter) {
        guard let clock else { return }
        advance(to: clock(), lines: &lines)
    }

    /// Ends every open visit at the last time seen and writes the last line.
    public mutating func finish(lines: inout JSONWriter) {
        guard let time = lastTime else { return }
        for outgoing in view.finish(at: time) { publish(outgoing) }
        VenueTickLine.appendLine(time: time, beacons: view.beacons, events: view.takeEvents(), to: &lines)
    }

    /// Messages refused, by reason, for the closing line on standard error.
    public var refusedSummary: String? {
        let refused = view.refused
        guard !refused.isEmpty else { return nil }
        let reasons = refused.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(view.refusedTotal) broker messages refused (\(reasons))"
    }

    /// The view ticks every second passed before `time`, as a live view does on the wall clock (the
    /// first 60 s of a silence, then its last second, as a seek's catch-up does): ticking only at a
    /// silence's start and end let a reading's entry evidence lapse unseen, so a badge heard for
    /// its last 5 s with nothing after had a visit live and none in `replay` or `report`. A line is
    /// written for the first second, a second that decided events, and the whole second before
    /// `time` (no run of empty lines).
    private mutating func advance(to time: Double, lines: inout JSONWriter) {
        guard time.isFinite else { return }
        lastTime = max(lastTime ?? time, time)
        guard var tick = nextTick else {
            nextTick = time.rounded(.down) + 1
            return
        }
        let last = time.rounded(.down)
        var ticked = 0
        while tick <= time {
            for outgoing in view.tick(at: tick) { publish(outgoing) }
            if ticked == 0 || tick == last || !view.pendingEvents.isEmpty {
                VenueTickLine.appendLine(time: tick, beacons: view.beacons, events: view.takeEvents(), to: &lines)
            }
            ticked += 1
            tick += 1
            if ticked == 60, tick < last { tick = last }
        }
        nextTick = tick
    }
}

extension VenueOutgoing {
    /// As the MQTT client publishes it.
    public var message: MQTTOutgoingMessage {
        MQTTOutgoingMessage(topic: topic, payload: payload, qos: atLeastOnce ? .atLeastOnce : .atMostOnce, retain: retain, expiresAfter: expiresAfter)
    }
}
