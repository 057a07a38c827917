import BeaconFormats
import Ranging

/// Gathers what every beacon sends while the technician stands at one spot, then summarises it as
/// a `SurveySample`. RSSI is an integer dBm, so each beacon keeps a count per dBm value (the
/// quantiles are exact, and the memory does not grow with the sample's length).
public struct SampleCollector: Sendable {
    public let spot: FloorPosition
    public let start: Double
    private let catalog: ExhibitCatalog?
    private let ranging: RangingConfiguration
    private var beacons: [BeaconIdentity: Tally] = [:]

    private struct Tally: Sendable {
        /// Packets per dBm, index `rssi + 128` (HCI reports RSSI as an Int8).
        var counts = [UInt32](repeating: 0, count: 256)
        var packets = 0
        var frameMeasuredPower: Int?
    }

    /// Starts a sample at `spot` at capture time `start`. The catalog gives measured powers and
    /// path-loss exponents; `ranging` the defaults and the distance model, as in the monitor.
    public init(spot: FloorPosition, start: Double, catalog: ExhibitCatalog? = nil, ranging: RangingConfiguration = RangingConfiguration()) {
        self.spot = spot
        self.start = start
        self.catalog = catalog
        self.ranging = ranging
    }

    /// Beacons heard so far.
    public var beaconCount: Int { beacons.count }

    /// Packets not counted: their beacon came after `RangingConfiguration.maxBeacons` others.
    public private(set) var packetsLeftOut = 0

    /// One packet. Packets from before the start are ignored; TLM is ignored (it names no beacon).
    public mutating func add(time: Double, identity: BeaconIdentity, rssi: Int, measuredPower: Int?) {
        guard time >= start else { return }
        if case .eddystoneTLM = identity { return }
        if beacons[identity] == nil, beacons.count >= ranging.maxBeacons {
            packetsLeftOut += 1
            return
        }
        var tally = beacons[identity, default: Tally()]
        tally.counts[Int(Int8(clamping: rssi)) + 128] += 1
        tally.packets += 1
        if measuredPower != nil { tally.frameMeasuredPower = measuredPower }
        beacons[identity] = tally
    }

    public mutating func add(_ sighting: Sighting) {
        add(time: sighting.time, identity: sighting.identity, rssi: sighting.rssi, measuredPower: sighting.measuredPower)
    }

    /// The sample, numbered `index`, ending at `end`.
    public func finish(index: Int, end: Double) -> SurveySample {
        let readings = beacons.map { identity, tally in
            let id = identity.description
            let exhibit = catalog?.exhibit(forID: id)
            let power = ResolvedMeasuredPower.resolve(
                frame: tally.frameMeasuredPower, override: exhibit?.measuredPower, defaultPower: ranging.defaultMeasuredPower
            ).dBm
            let exponent = exhibit?.pathLossExponent ?? ranging.pathLossExponent
            let median = Self.quantile(tally.counts, packets: tally.packets, 0.5)
            let distance = ranging.distanceModel.distance(rssi: median, measuredPower: power, pathLossExponent: exponent)
            return SpotReading(
                id: id, packets: tally.packets, median: median,
                low: Self.quantile(tally.counts, packets: tally.packets, 0.1),
                high: Self.quantile(tally.counts, packets: tally.packets, 0.9),
                measuredPower: power, exponent: exponent,
                // Centimetres: the model is not better than that, and the file stays readable.
                distance: distance.map { ($0 * 100).rounded() / 100 }
            )
        }
        return SurveySample(index: index, spot: spot, start: start, end: max(end, start), readings: readings)
    }

    /// The `q` quantile, interpolated between the two nearest ranks (as `ArrivalRing.rssiQuantile`).
    static func quantile(_ counts: [UInt32], packets: Int, _ q: Double) -> Double {
        let rank = q * Double(packets - 1)
        let lowRank = Int(rank)
        let highRank = min(lowRank + 1, packets - 1)
        var seen = 0
        var low: Int?
        for (index, count) in counts.enumerated() where count > 0 {
            seen += Int(count)
            if low == nil, seen > lowRank { low = index }
            if seen > highRank {
                let lowValue = Double(low! - 128)
                let value = lowValue + Double(index - low!) * (rank - Double(lowRank))
                // Tenths: quantiles of whole dBm need no more.
                return (value * 10).rounded() / 10
            }
        }
        return 0
    }
}
