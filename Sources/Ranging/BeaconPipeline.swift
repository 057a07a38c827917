import BeaconFormats

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
    private var nextTick: Double?
    private var lastPacketTime: Double?
    private var lastTickWasEmpty = false
    /// Sightings ranged so far.
    public private(set) var beaconReports = 0

    public init(engine: RangingEngine, tickInterval: Double = 1) {
        precondition(tickInterval > 0, "tick interval must be positive")
        self.engine = engine
        self.tickInterval = tickInterval
    }

    /// Emits the ticks due before a packet at `time`. Call it before `record` for every packet, in
    /// capture order.
    public mutating func advance(to time: Double, onTick: (RangingSnapshot) -> Void) {
        emitTicks(through: time, onTick: onTick)
        if time.isFinite { lastPacketTime = max(lastPacketTime ?? time, time) }
    }

    /// Ranges one decoded sighting (after `advance(to:)`), on the engine's fast path for frames it
    /// already tracks; one that is not rangeable is skipped.
    @inline(__always)
    public mutating func record(_ sighting: BeaconSighting) {
        guard sighting.isRangeable else { return }
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
        onTick(engine.tick(at: next))
        nextTick = next + tickInterval
    }

    /// Per-exhibit dwell up to the last packet.
    public var dwellReport: DwellReport {
        engine.dwellReport(at: engine.lastTick ?? lastPacketTime ?? 0)
    }

    private mutating func emitTicks(through time: Double, onTick: (RangingSnapshot) -> Void) {
        guard time.isFinite else { return }
        guard var next = nextTick else {
            nextTick = ((time / tickInterval).rounded(.down) + 1) * tickInterval
            return
        }
        while next <= time {
            let snapshot = engine.tick(at: next)
            let empty = snapshot.beacons.isEmpty && snapshot.events.isEmpty
            if !(empty && lastTickWasEmpty) { onTick(snapshot) }
            lastTickWasEmpty = empty
            next += tickInterval
            if empty, next <= time {
                next = max(next, (time / tickInterval).rounded(.down) * tickInterval)
            }
        }
        nextTick = next
    }
}
