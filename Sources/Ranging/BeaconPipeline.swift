import BeaconFormats
import HCI

/// Sightings in, ranging ticks out: `RangingEngine` with a tick every `tickInterval` seconds of
/// *capture* time. Every source (capture file, live socket, simulator, a remote scanner) comes down
/// to sightings (`BeaconSightingDecoder` for HCI packets), so live and replay share one pipeline.
///
/// Ticks fall on multiples of `tickInterval` (1 s by default: 12:00:01, 12:00:02, ...). A tick is
/// emitted before the first packet at or after its time: call `advance(to:)` with each packet's
/// time, then `record` its sightings. After a silence, one empty tick is emitted and the rest
/// skipped, so a capture with an hour-long gap does not print 3600 empty lines. Sightings that are
/// not rangeable (`BeaconSighting.isRangeable`: telemetry, no RSSI) are not ranged.
public struct BeaconPipeline: Sendable {
    public var engine: RangingEngine
    public let tickInterval: Double
    /// The next tick is number `nextTick`, at `nextTick * tickInterval`: counted in integers, so it
    /// always advances (a Double plus 1 s stops changing past 2^53 s).
    private var nextTick: Int64?
    private var lastPacketTime: Double?
    private var lastTickWasEmpty = false
    /// Sightings ranged so far.
    public private(set) var beaconReports = 0

    /// Shortest tick interval: a day of ticks stays under 10^8 (see `TimestampPolicy.longestGap`).
    public static let shortestTickInterval = 0.001
    /// Longest tick interval: a day, the longest silence ticks cover (`TimestampPolicy.longestGap`).
    /// Ticks fall on multiples of the interval: `--tick 1e10` put the first past year 2255, where
    /// times no longer fit the tick line's six decimals and `t` was written as null.
    public static let longestTickInterval = 86_400.0

    public init(engine: RangingEngine, tickInterval: Double = 1) {
        precondition(tickInterval >= Self.shortestTickInterval && tickInterval.isFinite, "tick interval must be at least 1 ms")
        self.engine = engine
        self.tickInterval = tickInterval
    }

    /// Emits the ticks due before a packet at `time`. Call it before `record` for every packet, in
    /// capture order. A time outside `TimestampPolicy` emits nothing: the capture readers never
    /// deliver one and the sighting decoder refuses such a packet as malformed, but a caller's own
    /// time must not stall or trap the tick count.
    public mutating func advance(to time: Double, onTick: (RangingSnapshot) -> Void) {
        guard TimestampPolicy.accepts(time) else { return }
        emitTicks(through: time, onTick: onTick)
        lastPacketTime = max(lastPacketTime ?? time, time)
    }

    /// Ranges one decoded sighting (after `advance(to:)`), on the engine's fast path for frames it
    /// already tracks; one that is not rangeable, or (a remote scanner's) timed outside
    /// `TimestampPolicy`, is skipped.
    @inline(__always)
    public mutating func record(_ sighting: BeaconSighting) {
        guard sighting.isRangeable, TimestampPolicy.accepts(sighting.timestamp) else { return }
        beaconReports += 1
        engine.record(sighting)
    }

    /// Ranges one sighting of a known identity (after `advance(to:)`).
    public mutating func record(_ sighting: Sighting) {
        beaconReports += 1
        engine.record(sighting)
    }

    /// Emits the tick at the end of the capture (the next tick boundary after the last packet).
    public mutating func finish(onTick: (RangingSnapshot) -> Void) {
        guard let next = nextTick else { return }
        onTick(engine.tick(at: Double(next) * tickInterval))
        nextTick = next + 1
    }

    /// Emits the ticks due before `end`, then the last tick stamped at `end` itself rather than at
    /// the next boundary, so it covers exactly the stretch since the tick before (a scanner agent's
    /// last readings and telemetry are not dated up to a tick ahead of their packets). `end` is the
    /// time the scan really stopped (a live radio's clock at its clean-up); nil, or a time before
    /// the last packet, is the last packet's time (a replay's end).
    public mutating func finish(at end: Double?, onTick: (RangingSnapshot) -> Void) {
        guard nextTick != nil, let lastPacket = lastPacketTime else { return }
        let end = max(end ?? lastPacket, lastPacket)
        guard TimestampPolicy.accepts(end) else { return finish(onTick: onTick) }
        // Not a boundary at `end` itself: a packet at that time comes after it, so the last tick holds it.
        emitTicks(through: end.nextDown, onTick: onTick)
        guard let next = nextTick, end > Double(next - 1) * tickInterval else {
            return finish(onTick: onTick)  // the last packet fell on a boundary after its tick: the next one holds it
        }
        onTick(engine.tick(at: end))
        nextTick = next + 1
    }

    /// Per-exhibit dwell up to the last packet.
    public var dwellReport: DwellReport {
        engine.dwellReport(at: engine.lastTick ?? lastPacketTime ?? 0)
    }

    /// Emits ticks up to `time` (inside `TimestampPolicy`, so the tick number fits an Int64 with room).
    /// Ticks stop after a silent tick, or a day after the last packet, and resume at `time`'s tick:
    /// a jump costs at most a day of ticks, even when the catalog keeps beacons for longer.
    private mutating func emitTicks(through time: Double, onTick: (RangingSnapshot) -> Void) {
        let due = Int64((time / tickInterval).rounded(.down))
        guard var next = nextTick else {
            nextTick = due + 1
            return
        }
        let giveUpAfter = (lastPacketTime ?? time) + TimestampPolicy.longestGap
        while next <= due {
            let tickTime = Double(next) * tickInterval
            let snapshot = engine.tick(at: tickTime)
            let empty = snapshot.beacons.isEmpty && snapshot.events.isEmpty
            if !(empty && lastTickWasEmpty) { onTick(snapshot) }
            lastTickWasEmpty = empty
            next += 1
            if empty || tickTime > giveUpAfter { next = max(next, due) }
        }
        nextTick = next
    }
}
