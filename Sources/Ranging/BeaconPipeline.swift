import BeaconFormats
import HCI

/// HCI packets in, ranging ticks out: `AdvertisingReportDecoder` -> `BeaconDecoder` ->
/// `RangingEngine`, with a tick every `tickInterval` seconds of *capture* time. Every source
/// (capture file, live socket, simulator) can feed it, so live and replay share one pipeline.
///
/// Ticks fall on multiples of `tickInterval` (1 s by default: 12:00:01, 12:00:02, ...). A tick is
/// emitted before the first packet at or after its time. After a silence, one empty tick is
/// emitted and the rest skipped, so a capture with an hour-long gap does not print 3600 empty lines.
/// Eddystone-TLM frames are counted but not ranged (telemetry names no beacon of its own), and
/// reports without RSSI (controller says 127) are skipped.
public struct BeaconPipeline: Sendable {
    public var engine: RangingEngine
    public let tickInterval: Double
    private var decoder = AdvertisingReportDecoder()
    /// The next tick is number `nextTick`, at `nextTick * tickInterval`: counted in integers, so it
    /// always advances (a Double plus 1 s stops changing past 2^53 s).
    private var nextTick: Int64?
    private var lastPacketTime: Double?
    private var lastTickWasEmpty = false
    private var pending: [PendingFrame] = []

    /// A frame decoded from the packet being fed, waiting to be ranged.
    private struct PendingFrame {
        var frame: BeaconFrame
        var address: BDAddress
        var rssi: Int
        var time: Double
    }
    public private(set) var packets = 0
    public private(set) var malformedPackets = 0
    public private(set) var reports = 0
    public private(set) var beaconReports = 0
    /// The first decode error seen, for a message.
    public private(set) var firstError: DecodeError?

    /// Shortest tick interval: a day of ticks stays under 10^8 (see `TimestampPolicy.longestGap`).
    public static let shortestTickInterval = 0.001

    public init(engine: RangingEngine, tickInterval: Double = 1) {
        precondition(tickInterval >= Self.shortestTickInterval && tickInterval.isFinite, "tick interval must be at least 1 ms")
        self.engine = engine
        self.tickInterval = tickInterval
    }

    /// Feeds one packet; calls `onTick` for each tick that falls before it.
    public mutating func feed(_ packet: HCIPacket, onTick: (RangingSnapshot) -> Void) {
        packets += 1
        let time = packet.timestamp
        // Live and scripted packets reach here without a capture reader's check.
        guard TimestampPolicy.accepts(time) else {
            malformedPackets += 1
            if firstError == nil { firstError = DecodeError(field: "timestamp", offset: 0, reason: TimestampPolicy.refusal(time)) }
            return
        }
        emitTicks(through: time, onTick: onTick)
        lastPacketTime = max(lastPacketTime ?? time, time)
        // Decode into a reused buffer, then range: the decoder's closure cannot mutate `self`, and
        // copying the engine into it would copy its tables on every packet.
        var pending = self.pending
        self.pending = []
        var reports = 0
        do {
            try decoder.decode(packet) { advertisement in
                reports += 1
                guard let rssi = advertisement.rssi else { return }
                // Every frame: one advertisement may carry an iBeacon and an Eddystone frame.
                BeaconDecoder.forEachFrame(in: advertisement.data) { frame in
                    if case .eddystoneTLM = frame { return }
                    pending.append(PendingFrame(frame: frame, address: advertisement.address, rssi: Int(rssi), time: advertisement.timestamp))
                }
            }
        } catch {
            malformedPackets += 1
            if firstError == nil { firstError = error }
        }
        for item in pending { engine.record(frame: item.frame, address: item.address, rssi: item.rssi, at: item.time) }
        beaconReports += pending.count
        pending.removeAll(keepingCapacity: true)
        self.pending = pending
        self.reports += reports
    }

    /// For callers with their own decoder (the capture replay uses `Captures`' fast
    /// `BeaconSightingDecoder`): emits the ticks due before a packet at `time`. Call it before
    /// `record` for every packet, in capture order.
    /// A time outside `TimestampPolicy` emits nothing (the capture readers never deliver one).
    public mutating func advance(to time: Double, onTick: (RangingSnapshot) -> Void) {
        packets += 1
        guard TimestampPolicy.accepts(time) else { return }
        emitTicks(through: time, onTick: onTick)
        lastPacketTime = max(lastPacketTime ?? time, time)
    }

    /// For callers with their own decoder: ranges one sighting (after `advance(to:)`).
    public mutating func record(_ sighting: Sighting) {
        beaconReports += 1
        engine.record(sighting)
    }

    /// For callers with their own decoder: ranges one decoded frame (after `advance(to:)`), on the
    /// engine's fast path for frames it already tracks.
    public mutating func record(frame: BeaconFrame, address: BDAddress, rssi: Int, at time: Double) {
        beaconReports += 1
        engine.record(frame: frame, address: address, rssi: rssi, at: time)
    }

    /// Emits the tick at the end of the capture (the next tick boundary after the last packet).
    public mutating func finish(onTick: (RangingSnapshot) -> Void) {
        guard let next = nextTick else { return }
        onTick(engine.tick(at: Double(next) * tickInterval))
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
