import BeaconFormats
import Ranging

/// What the monitor shows about one beacon beyond a ranging tick: the once-a-second RSSI and
/// distance history (sparkline and charts), the last raw advertising data (detail pane hex dump)
/// and every reference filter run side by side on the same samples (issue 5 item 5: "every
/// filter's estimate side by side"). Owned by `MonitorFeed`.
struct BeaconExtras: Sendable {
    /// About one minute at one sample per second: what the detail charts draw.
    static let historyLength = 60

    /// The beacon's short id, made once rather than in every frame.
    let shortName: String
    var rssiHistory: [Int] = []
    var accuracyHistory: [Double] = []
    var lastRawFrame: [UInt8] = []
    /// One filter per `RSSIFilterKind`, in `allCases` order.
    var filters: [any RSSIFilter] = RSSIFilterKind.allCases.map { $0.makeFilter() }
    var estimates: [FilterEstimate] = []
    /// The data-clock second of the last history sample.
    var lastSampleSecond: Double?

    init(identity: BeaconIdentity) {
        shortName = identity.shortDescription
    }

    mutating func record(rssi: Int, at time: Double, raw: ArraySlice<UInt8>) {
        for index in filters.indices { filters[index].add(Double(rssi), at: time) }
        if !lastRawFrame.elementsEqual(raw) { lastRawFrame = Array(raw) }
    }

    /// Appends one history sample per data-clock second and refreshes the side-by-side estimates
    /// then (once a second is plenty for a pane a person reads, and keeps 100 beacons cheap).
    mutating func sample(_ reading: BeaconReading, at time: Double, model: DistanceModel) {
        let second = time.rounded(.down)
        guard lastSampleSecond != second else { return }
        lastSampleSecond = second
        if !reading.isStale {
            rssiHistory.append(reading.rssi)
            if rssiHistory.count > Self.historyLength { rssiHistory.removeFirst(rssiHistory.count - Self.historyLength) }
            if reading.accuracy >= 0 {
                accuracyHistory.append(reading.accuracy)
                if accuracyHistory.count > Self.historyLength {
                    accuracyHistory.removeFirst(accuracyHistory.count - Self.historyLength)
                }
            }
        }
        estimates = zip(RSSIFilterKind.allCases, filters.indices).map { kind, index in
            let estimate = filters[index].estimate(at: time)
            let metres = estimate.flatMap {
                model.distance(rssi: $0, measuredPower: reading.measuredPower.dBm, pathLossExponent: reading.pathLossExponent)
            }
            return FilterEstimate(filterName: kind.rawValue, accuracy: metres)
        }
    }
}
