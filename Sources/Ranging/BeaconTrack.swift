import BeaconFormats
import HCI

/// One beacon's ranging state, in bounded memory: its filter, a ring of recent arrival times,
/// counters and the proximity classifier. Owned by `RangingEngine`.
struct BeaconTrack: Sendable {
    let identity: BeaconIdentity
    /// `identity.description`, once: it is printed every tick.
    let id: String
    var address: BDAddress
    /// `address.description`, rebuilt only when the address changes (printed every tick).
    private(set) var addressText: String
    private var addressTextFor: BDAddress
    var lastRSSI: Int = 0
    var frameMeasuredPower: Int?
    /// The default filter is stored concretely and unwrapped (no existential dispatch, and no
    /// copy of an optional's payload to test it, on the hot path); any other selected filter is in
    /// `otherFilter`, and `adaptiveFilter` then sits unused.
    var adaptiveFilter: AdaptiveKalmanRSSIFilter
    var otherFilter: (any RSSIFilter)?
    private let usesAdaptiveFilter: Bool
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
    /// The RSSI of each arrival in `arrivals` (same slots): the nearest-exhibit choice's window.
    /// Int8 as HCI reports it (Core 5.4 Vol 4 Part E 7.7.65.2): a track's ring stays one cache line.
    private var arrivalRSSI: [Int8]
    private var arrivalHead = 0
    private var arrivalCount = 0

    init(
        identity: BeaconIdentity, address: BDAddress, time: Double, filter: any RSSIFilter,
        classifier: ProximityClassifier, exhibitIndex: Int?, measuredPowerOverride: Double?,
        pathLossExponent: Double, regionIndices: [Int], arrivalHistory: Int
    ) {
        self.identity = identity
        id = identity.description
        self.address = address
        addressText = address.description
        addressTextFor = address
        if let adaptive = filter as? AdaptiveKalmanRSSIFilter {
            adaptiveFilter = adaptive
            usesAdaptiveFilter = true
        } else {
            adaptiveFilter = AdaptiveKalmanRSSIFilter()
            otherFilter = filter
            usesAdaptiveFilter = false
        }
        self.classifier = classifier
        firstSeen = time
        lastSeen = time
        self.exhibitIndex = exhibitIndex
        self.measuredPowerOverride = measuredPowerOverride
        self.pathLossExponent = pathLossExponent
        self.regionIndices = regionIndices
        arrivals = Array(repeating: 0, count: arrivalHistory)
        arrivalRSSI = Array(repeating: 0, count: arrivalHistory)
    }

    /// Records one sighting. After a silence longer than `staleAfter` the filter and class start
    /// afresh: the old level says nothing about where the beacon is now.
    mutating func record(_ sighting: Sighting, staleAfter: Double) {
        record(time: sighting.time, rssi: sighting.rssi, measuredPower: sighting.measuredPower, address: sighting.address, staleAfter: staleAfter)
    }

    mutating func record(time: Double, rssi: Int, measuredPower: Int?, address: BDAddress, staleAfter: Double) {
        if time - lastSeen > staleAfter {
            adaptiveFilter.reset()
            otherFilter?.reset()
            classifier.reset()
        }
        if usesAdaptiveFilter {
            adaptiveFilter.add(Double(rssi), at: time)
        } else {
            otherFilter?.add(Double(rssi), at: time)
        }
        lastRSSI = rssi
        frameMeasuredPower = measuredPower
        self.address = address
        lastSeen = max(lastSeen, time)
        packetsSinceTick += 1
        totalPackets += 1
        arrivals[arrivalHead] = time
        arrivalRSSI[arrivalHead] = Int8(clamping: rssi)
        // A compare, not `%`: an integer division per sighting showed in the replay profile.
        arrivalHead += 1
        if arrivalHead == arrivals.count { arrivalHead = 0 }
        if arrivalCount < arrivals.count { arrivalCount += 1 }
    }

    /// Brings `addressText` up to date (at tick time, not per sighting).
    mutating func refreshAddressText() {
        if addressTextFor != address {
            addressText = address.description
            addressTextFor = address
        }
    }

    /// The filter's estimate at `time`, and its variance.
    mutating func estimate(at time: Double) -> (value: Double, variance: Double?)? {
        if usesAdaptiveFilter {
            guard let value = adaptiveFilter.estimate(at: time) else { return nil }
            return (value, adaptiveFilter.estimateVariance)
        }
        guard let value = otherFilter?.estimate(at: time) else { return nil }
        return (value, otherFilter?.estimateVariance)
    }

    /// The arrival `back` packets ago (0 = newest); `back < arrivalCount`. A compare, not `%`: the
    /// per-tick rate and interval walk up to 64 arrivals, and an integer division each was most of
    /// a tick's cost (perf, `beacontop-bench replay-stages`).
    @inline(__always)
    private func arrival(_ back: Int) -> Double {
        let slot = arrivalHead - 1 - back
        return arrivals[slot < 0 ? slot + arrivals.count : slot]
    }

    /// A quantile (0.5: the median) of the RSSI of the packets that arrived in the last `window`
    /// seconds before `time`, or of the last `minimumCount` packets when fewer arrived in the window;
    /// nil when nothing was heard. This is the nearest-exhibit choice's fast, robust level: a deep
    /// fade or a body-blocked burst moves a median little, and a window of a second or two follows
    /// an arrival far sooner than the display filter. Runs per candidate per tick, so it counts
    /// instead of sorting (RSSI is an integer): a 256-slot histogram on the stack, no allocation.
    func recentRSSIQuantile(at time: Double, window: Double, quantile: Double, minimumCount: Int = 3) -> Double? {
        let capacity = arrivals.count
        var count = 0
        var slot = arrivalHead == 0 ? capacity - 1 : arrivalHead - 1
        while count < arrivalCount, arrivals[slot] > time - window {
            count += 1
            slot = slot == 0 ? capacity - 1 : slot - 1
        }
        count = min(max(count, min(minimumCount, arrivalCount)), arrivalCount)
        guard count > 0 else { return nil }
        let rank = min(max(quantile, 0), 1) * Double(count - 1)
        let lowRank = Int(rank)
        let highRank = min(lowRank + 1, count - 1)
        return arrivalRSSI.withUnsafeBufferPointer { ring in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { histogram -> Double in
                var slot = arrivalHead == 0 ? capacity - 1 : arrivalHead - 1
                var lowest = Int.max, highest = Int.min
                for _ in 0..<count {
                    let value = Int(ring[slot]) + 128
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    slot = slot == 0 ? capacity - 1 : slot - 1
                }
                for value in lowest...highest { histogram[value] = 0 }
                slot = arrivalHead == 0 ? capacity - 1 : arrivalHead - 1
                for _ in 0..<count {
                    histogram[Int(ring[slot]) + 128] &+= 1
                    slot = slot == 0 ? capacity - 1 : slot - 1
                }
                // Walk up to the values of rank lowRank and highRank (0-based, in sorted order).
                var seen = 0, low = -1, high = highest, value = lowest
                while value <= highest {
                    seen += Int(histogram[value])
                    if low < 0, seen > lowRank { low = value }
                    if seen > highRank {
                        high = value
                        break
                    }
                    value += 1
                }
                return Double(low - 128) + Double(high - low) * (rank - Double(lowRank))
            }
        }
    }

    /// Packets per second over the last `window` seconds (or since first heard, or over the ring
    /// when the ring does not reach back that far; at least 1 s). Allocation-free: it runs per beacon per tick.
    func packetsPerSecond(at time: Double, window: Double = 10) -> Double {
        var recent = 0
        while recent < arrivalCount, arrival(recent) > time - window { recent += 1 }
        guard recent > 0 else { return 0 }
        if recent == arrivals.count, recent >= 2 {
            let span = arrival(0) - arrival(recent - 1)
            return span > 0 ? Double(recent - 1) / span : 0
        }
        // A beacon heard for less than a second has no meaningful rate yet: count over 1 s.
        let span = min(window, max(time - firstSeen, 1))
        return Double(recent) / span
    }

    /// The median of the last (up to) 16 gaps between arrivals: the advertising interval as
    /// received, missed packets included. Insertion sort in a stack buffer: no allocation per tick.
    var advertisingInterval: Double? {
        let gapCount = min(arrivalCount - 1, 16)
        guard gapCount >= 1 else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 16) { gaps -> Double? in
            var filled = 0
            for back in 0..<gapCount {
                let gap = arrival(back) - arrival(back + 1)
                guard gap > 0 else { continue }
                var slot = filled
                while slot > 0, gaps[slot - 1] > gap {
                    gaps[slot] = gaps[slot - 1]
                    slot -= 1
                }
                gaps[slot] = gap
                filled += 1
            }
            return filled == 0 ? nil : gaps[filled / 2]
        }
    }
}
