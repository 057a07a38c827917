import BeaconFormats
import HCI

/// One beacon's ranging state, in bounded memory: its filter, a ring of recent arrival times,
/// counters and the proximity classifier. Owned by `RangingEngine`.
struct BeaconTrack: Sendable {
    let identity: BeaconIdentity
    var address: BDAddress
    var lastRSSI: Int = 0
    var frameMeasuredPower: Int?
    var filter: any RSSIFilter
    var classifier: ProximityClassifier
    var firstSeen: Double
    var lastSeen: Double
    var packetsSinceTick = 0
    var totalPackets = 0
    /// Catalog entry and calibration, looked up once when the beacon is first heard.
    let exhibitIndex: Int?
    let measuredPowerOverride: Double?
    let pathLossExponent: Double
    let regionIndices: [Int]
    private var arrivals: [Double]
    private var arrivalHead = 0
    private var arrivalCount = 0

    init(
        identity: BeaconIdentity, address: BDAddress, time: Double, filter: any RSSIFilter,
        classifier: ProximityClassifier, exhibitIndex: Int?, measuredPowerOverride: Double?,
        pathLossExponent: Double, regionIndices: [Int], arrivalHistory: Int
    ) {
        self.identity = identity
        self.address = address
        self.filter = filter
        self.classifier = classifier
        firstSeen = time
        lastSeen = time
        self.exhibitIndex = exhibitIndex
        self.measuredPowerOverride = measuredPowerOverride
        self.pathLossExponent = pathLossExponent
        self.regionIndices = regionIndices
        arrivals = Array(repeating: 0, count: arrivalHistory)
    }

    /// Records one sighting. After a silence longer than `staleAfter` the filter and class start
    /// afresh: the old level says nothing about where the beacon is now.
    mutating func record(_ sighting: Sighting, staleAfter: Double) {
        if sighting.time - lastSeen > staleAfter {
            filter.reset()
            classifier.reset()
        }
        filter.add(Double(sighting.rssi), at: sighting.time)
        lastRSSI = sighting.rssi
        frameMeasuredPower = sighting.measuredPower
        address = sighting.address
        lastSeen = max(lastSeen, sighting.time)
        packetsSinceTick += 1
        totalPackets += 1
        arrivals[arrivalHead] = sighting.time
        arrivalHead = (arrivalHead + 1) % arrivals.count
        arrivalCount = min(arrivalCount + 1, arrivals.count)
    }

    /// Arrival times, oldest first.
    private var orderedArrivals: [Double] {
        let start = (arrivalHead - arrivalCount + arrivals.count) % arrivals.count
        return (0..<arrivalCount).map { arrivals[(start + $0) % arrivals.count] }
    }

    /// Packets per second over the last `window` seconds (or since first heard, or over the ring
    /// when the ring does not reach back that far).
    func packetsPerSecond(at time: Double, window: Double = 10) -> Double {
        let times = orderedArrivals
        let recent = times.filter { $0 > time - window }
        guard !recent.isEmpty else { return 0 }
        if recent.count == times.count, times.count == arrivals.count, let first = times.first, let last = times.last, last > first {
            return Double(times.count - 1) / (last - first)
        }
        let span = min(window, max(time - firstSeen, 0))
        return span > 0 ? Double(recent.count) / span : 0
    }

    /// The median gap between consecutive arrivals in the ring (missed packets included).
    var advertisingInterval: Double? {
        let times = orderedArrivals
        guard times.count >= 2 else { return nil }
        var gaps: [Double] = []
        gaps.reserveCapacity(times.count - 1)
        for index in 1..<times.count where times[index] > times[index - 1] {
            gaps.append(times[index] - times[index - 1])
        }
        guard !gaps.isEmpty else { return nil }
        gaps.sort()
        return gaps[gaps.count / 2]
    }
}
