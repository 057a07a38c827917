import Foundation
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
    private var usesAdaptiveFilter = false
    var classifier: ProximityClassifier
    var firstSeen: Double
    var lastSeen: Double
    var packetsSinceTick = 0
    var totalPackets = 0
    /// Catalog entry and calibration, looked up when the beacon is first heard and again only when
    /// the engine takes a new catalog (`RangingEngine.replaceCatalog`).
    var exhibitIndex: Int?
    var measuredPowerOverride: Double?
    var pathLossExponent: Double
    /// The default model's table for this beacon's exponent (nil for the other models), resolved
    /// once: a tick only interpolates in it.
    var posterior: PathLossPosteriorTable?
    var regionIndices: [Int]
    /// When the movement cue last fired while this beacon was silent beyond the nearest window:
    /// its level is stale until it is heard again (`SilentRankRule.movedApart`, `.changed`).
    var movedAwayAt = -Double.infinity
    /// Recent packets: the rate, the advertising interval and the nearest-exhibit window.
    private var arrivals: ArrivalRing

    init(
        identity: BeaconIdentity, address: BDAddress, time: Double, filter: any RSSIFilter,
        classifier: ProximityClassifier, exhibitIndex: Int?, measuredPowerOverride: Double?,
        pathLossExponent: Double, posterior: PathLossPosteriorTable? = nil, regionIndices: [Int], arrivalHistory: Int
    ) {
        self.identity = identity
        id = identity.description
        self.address = address
        addressText = address.description
        addressTextFor = address
        adaptiveFilter = AdaptiveKalmanRSSIFilter()
        self.classifier = classifier
        firstSeen = time
        lastSeen = time
        self.exhibitIndex = exhibitIndex
        self.measuredPowerOverride = measuredPowerOverride
        self.pathLossExponent = pathLossExponent
        self.posterior = posterior
        self.regionIndices = regionIndices
        arrivals = ArrivalRing(capacity: arrivalHistory)
        replaceFilter(with: filter)
    }

    /// Ranges with `filter` from now on (also the monitor's `f`): it starts empty and fills from the
    /// next packet, while the arrivals, class, catalog entry and regions carry on.
    mutating func replaceFilter(with filter: any RSSIFilter) {
        if let adaptive = filter as? AdaptiveKalmanRSSIFilter {
            adaptiveFilter = adaptive
            otherFilter = nil
            usesAdaptiveFilter = true
        } else {
            adaptiveFilter = AdaptiveKalmanRSSIFilter()
            otherFilter = filter
            usesAdaptiveFilter = false
        }
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
        arrivals.append(time: time, rssi: rssi)
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

    /// A quantile (0.5: the median) of the RSSI of the packets that arrived in the last `window`
    /// seconds before `time`, or of the last `minimumCount` packets when fewer arrived in the window;
    /// nil when nothing was heard. This is the nearest-exhibit choice's fast, robust level: a deep
    /// fade or a body-blocked burst moves a median little, and a window of a second or two follows
    /// an arrival far sooner than the display filter.
    ///
    /// - Parameter memory: the stand-in packets are only those of the last `memory` seconds, its
    ///   start included as staleness includes it (`time - lastSeen <= staleAfter` is heard; the
    ///   thirteenth round's `NearestMemory.staleAfter`); infinite by default.
    /// - Parameter overInterval: the fifteenth round's `NearestMemory.oneInterval` instead: the
    ///   packets of the last max(`window`, the advertising interval), at least the newest (with the
    ///   interval within the window and `minimumCount` or more packets in it, the same packets).
    func recentRSSIQuantile(
        at time: Double, window: Double, quantile: Double, minimumCount: Int = 3, memory: Double = .infinity, overInterval: Bool = false
    ) -> Double? {
        if overInterval {
            return arrivals.rssiQuantile(at: time, window: max(window, arrivals.advertisingInterval ?? 0), quantile: quantile, minimumCount: 1)
        }
        return arrivals.rssiQuantile(at: time, window: window, quantile: quantile, minimumCount: minimumCount, oldest: (time - memory).nextDown)
    }

    /// Packets per second over the last `window` seconds (or since first heard, or over the ring
    /// when the ring does not reach back that far; at least 1 s).
    func packetsPerSecond(at time: Double, window: Double = 10) -> Double {
        arrivals.packetsPerSecond(at: time, window: window, firstSeen: firstSeen)
    }

    /// Whether the beacon's silence has outlasted what its own reception makes likely: with p its
    /// recent reception ratio (median gap / mean gap, at most 1) and k the packets it has missed
    /// since `lastSeen` (a packet counts as missed half an interval after it was due), (1 − p)^k is
    /// below `level`. False until two gaps were heard.
    func isSilentBeyondLikely(at time: Double, level: Double) -> Bool {
        guard let interval = arrivals.advertisingInterval, let mean = arrivals.meanGap, interval > 0, mean > 0 else { return false }
        let missed = ((time - lastSeen) / interval - 0.5).rounded(.down)
        guard missed >= 1 else { return false }
        return pow(1 - min(1, interval / mean), missed) < level
    }

    /// Whether the beacon's silence is longer than its own recent gaps make likely (the thirteenth
    /// round's reception model, `SilentRankRule.ownGaps`): of its newest (up to) 16 gaps, k were at
    /// least as long as the silence now; the chance of a gap that long is taken as Jeffreys'
    /// estimate (k + 1/2) / (n + 1), never 0 however long the history (so a beacon heard in every
    /// gap is not dropped at one lost packet as under `isSilentBeyondLikely`), and the silence is
    /// beyond likely when that is below `level`. A silence no longer than `floor` (the nearest
    /// window: the level already spans it) never is.
    func isSilentBeyondOwnGaps(at time: Double, level: Double, floor: Double) -> Bool {
        let silence = time - lastSeen
        guard silence > floor else { return false }
        let (reaching, gaps) = arrivals.gaps(reaching: silence)
        guard gaps > 0 else { return false }
        return (Double(reaching) + 0.5) / Double(gaps + 1) < level
    }

    /// This beacon's change since the previous tick for the movement cue (`MovementCue`): the mean
    /// of the packets recorded since the tick at `previous` against the mean of those of the
    /// `window` before it (or its last 3), none older than `staleAfter` before `time` (such a level
    /// says nothing of now); the
    /// variance from its own per-packet noise as the default filter learnt it (3-12 dB; 4 dB, the
    /// filter's starting value, under another filter).
    func movementChange(since previous: Double, at time: Double, window: Double, staleAfter: Double) -> (change: Double, variance: Double)? {
        guard packetsSinceTick > 0, let (change, new, reference) = arrivals.change(newest: packetsSinceTick, since: previous, window: window, minimumCount: 3, oldest: time - staleAfter)
        else { return nil }
        let noise = usesAdaptiveFilter ? adaptiveFilter.learntNoise : AdaptiveKalmanRSSIFilter.Parameters().initialNoise
        return (change, noise * noise * (1 / Double(new) + 1 / Double(reference)))
    }

    /// The median of the last (up to) 16 gaps between arrivals: the advertising interval as
    /// received, missed packets included.
    var advertisingInterval: Double? { arrivals.advertisingInterval }
}
