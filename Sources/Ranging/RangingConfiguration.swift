/// Every tunable of the ranging engine, with the documented defaults (docs/ranging.md).
public struct RangingConfiguration: Sendable, Equatable {
    /// The RSSI filter every beacon gets.
    public var filter: RSSIFilterKind = .adaptive
    /// Parameters of the default filter.
    public var adaptiveFilter = AdaptiveKalmanRSSIFilter.Parameters()
    /// The default is learned from the HERALD runs (docs/ranging.md "Distance").
    public var distanceModel: DistanceModel = .posterior(.herald)
    /// Path-loss exponent n: for the posterior model the centre of its exponent's distribution
    /// (learned: phones 0-3.4 m apart indoors), for log-distance the exponent itself (2: free
    /// space). Per-beacon overrides come from the catalog (a second calibration point).
    public var pathLossExponent: Double = 1.49
    /// Used when a frame's measured power is nonsense (>= 0 dBm) or absent.
    public var defaultMeasuredPower: Double = -59
    /// The probability that `accuracyRange` holds the true distance (reported as `rangeProbability`).
    public var rangeProbability: Double = 0.8
    /// For the log-distance and curve-fit models only (the posterior model has its own, in its
    /// `PathLossPrior`): standard deviation (dB) of slow shadowing the filter cannot see, added to
    /// the filter's own variance; the range is the RSSI plus and minus the normal quantile of
    /// `rangeProbability` times that deviation, mapped to metres.
    public var shadowingDeviation: Double = 4.5
    /// A beacon not heard for this long (s) is shown `unknown` with accuracy -1, and its filter is
    /// restarted when it is heard again.
    public var staleAfter: Double = 5
    /// A beacon not heard for this long (s) is forgotten.
    public var forgetAfter: Double = 60
    /// Proximity boundaries (m) and hysteresis.
    public var immediateBelow: Double = 0.5
    public var nearBelow: Double = 3.0
    public var proximityMargin: Double = 0.15
    public var proximityDwell: Double = 1.0
    /// Nearest exhibit (docs/ranging.md "Nearest exhibit"). Every exhibit heard within
    /// `staleAfter` is a candidate, compared by the median RSSI heard in the last `nearestWindow`
    /// seconds (not the display filter, which is tuned for steadiness) relative to measured power;
    /// a challenger takes over when its lead beyond `nearestHysteresis` dB (at most
    /// `nearestLeadClip` dB counted per second) summed over time reaches `nearestEvidence` dB·s,
    /// and the holder has held `nearestMinimumHold` s. With nobody holding, the strongest takes it.
    /// The part of the holder's fall over `nearestMatchWindow` s that the challenger's rise does
    /// not match, beyond `nearestFallDeadBand` dB, is not counted as lead (`NearestExhibitSelector`
    /// says why these values).
    public var nearestWindow: Double = 2.0
    /// When set, a beacon whose silence has outlasted what its own recent reception makes likely
    /// (probability below this level, `BeaconTrack.isSilentBeyondLikely`) is ranked below every
    /// heard beacon, in the list and for `nearest`, until it is heard again. Off by default
    /// (docs/ranging-history.md, twelfth round).
    public var silentRankLevel: Double?
    /// Which reception model `silentRankLevel` judges a silence by: `.missedPackets` (the twelfth
    /// round's) or `.ownGaps` (the thirteenth's).
    public var silentRankRule: SilentRankRule = .missedPackets
    /// How far back the nearest level's stand-in packets reach when fewer than three arrived in
    /// `nearestWindow`: until the beacon is forgotten (the default), only `staleAfter`
    /// (the thirteenth round's candidate C), or none beyond one advertising interval (the
    /// fifteenth round's A; docs/ranging-history.md).
    public var nearestMemory: NearestMemory = .untilForgotten
    public var nearestQuantile: Double = 0.5
    public var nearestHysteresis: Double = 1.0
    public var nearestEvidence: Double = 6.0
    public var nearestLeadClip: Double = 4.0
    public var nearestMinimumHold: Double = 2.0
    public var nearestMatchWindow: Double = 3.0
    public var nearestFallDeadBand: Double = 3.5
    /// When set (m), an exhibit whose range's near end is beyond it cannot be nearest: the venue
    /// says a visitor that far from every exhibit is at none. The catalog's `nearestWithin` wins.
    public var nearestWithin: Double?
    /// A region is exited only after no matching beacon was heard for this long (s), as CoreLocation.
    public var regionExitDelay: Double = 30
    /// A dwell visit survives a gap of at most this long (s) with no exhibit nearest when the same
    /// exhibit comes back (docs/ranging.md "Regions and dwell").
    public var visitResumeWithin: Double = 5
    /// Most beacons tracked at once; a new one beyond this evicts the one heard least recently.
    public var maxBeacons: Int = 1024
    /// Arrival times kept per beacon for packets/s and the advertising interval.
    public var arrivalHistory: Int = 64

    public init() {}

    /// The standard normal quantile that puts `rangeProbability` between minus and plus it (1.28
    /// for 80%), for the models whose range is a normal deviation in dB.
    public var rangeQuantile: Double { NormalQuantile.twoSided(rangeProbability) }

    /// Checks the values make sense together; the error names the field.
    public func validate() throws(RangingConfigurationError) {
        func require(_ ok: Bool, _ field: String, _ reason: String) throws(RangingConfigurationError) {
            if !ok { throw RangingConfigurationError(field: field, reason: reason) }
        }
        try require(pathLossExponent > 0 && pathLossExponent.isFinite, "pathLossExponent", "must be positive")
        try require(rangeProbability > 0 && rangeProbability < 1, "rangeProbability", "must be between 0 and 1")
        if case .posterior(let prior) = distanceModel {
            try require(prior.exponentSpread >= 0 && prior.calibratedExponentSpread >= 0, "exponentSpread", "must not be negative")
            try require(prior.shadowing > 0, "shadowing", "must be positive")
            try require(prior.nearestDistance > 0 && prior.farthestDistance > prior.nearestDistance, "farthestDistance", "must be above nearestDistance, both positive")
            try require(prior.bodyLoss >= 0 && prior.bodyShare >= 0 && prior.bodyShare <= 1, "bodyLoss", "must not be negative, its share 0-1")
            try require(prior.rangeScaleNear > 0 && prior.rangeScaleNear.isFinite, "rangeScaleNear", "must be positive")
            try require(prior.rangeScaleFar > 0 && prior.rangeScaleFar.isFinite, "rangeScaleFar", "must be positive")
        }
        try require(ResolvedMeasuredPower.isPlausible(Int(defaultMeasuredPower)), "defaultMeasuredPower", "must be between -127 and -1 dBm")
        try require(staleAfter > 0, "staleAfter", "must be positive")
        try require(forgetAfter >= staleAfter, "forgetAfter", "must be at least staleAfter")
        try require(immediateBelow > 0 && nearBelow > immediateBelow, "nearBelow", "must be above immediateBelow, both positive")
        try require(proximityMargin >= 0, "proximityMargin", "must not be negative")
        try require(nearestWindow > 0, "nearestWindow", "must be positive")
        try require((0...1).contains(nearestQuantile), "nearestQuantile", "must be within 0...1")
        try require(nearestHysteresis >= 0, "nearestHysteresis", "must not be negative")
        try require(nearestEvidence >= 0, "nearestEvidence", "must not be negative")
        try require(nearestLeadClip > 0, "nearestLeadClip", "must be positive")
        try require(nearestMinimumHold >= 0, "nearestMinimumHold", "must not be negative")
        try require(nearestMatchWindow >= 0, "nearestMatchWindow", "must not be negative")
        try require(nearestFallDeadBand >= 0, "nearestFallDeadBand", "must not be negative")
        try require(nearestWithin.map { $0 > 0 } ?? true, "nearestWithin", "must be positive")
        try require(regionExitDelay >= 0, "regionExitDelay", "must not be negative")
        try require(visitResumeWithin >= 0, "visitResumeWithin", "must not be negative")
        try require(maxBeacons > 0, "maxBeacons", "must be positive")
        try require(arrivalHistory >= 2, "arrivalHistory", "must be at least 2")
    }
}

/// The reception model behind `RangingConfiguration.silentRankLevel` (docs/ranging-history.md).
public enum SilentRankRule: String, Sendable, Equatable, CaseIterable {
    /// (1 − p)^k with p = median gap / mean gap and k the packets missed (twelfth round).
    case missedPackets = "missed-packets"
    /// The silence against the beacon's own recent gaps, Jeffreys' estimate, beyond the nearest
    /// window only (thirteenth round, `BeaconTrack.isSilentBeyondOwnGaps`).
    case ownGaps = "own-gaps"
    /// Any silence beyond the nearest window, at a tick where the heard beacons moved apart beyond
    /// their own noise: `MovementCue.tailProbability` (Cochran's Q) below the level (fourteenth
    /// round, candidate A).
    case movedApart = "moved-apart"
    /// The same at a tick where the heard beacons changed beyond their own noise, alike or not:
    /// `MovementCue.magnitudeTailProbability` below the level (fourteenth round, candidate B).
    case changed

    /// Whether the rule is one of the movement cue's.
    public var usesMovementCue: Bool { self == .movedApart || self == .changed }
}

/// How old the packets standing in for a short nearest window may be (`RangingConfiguration.nearestMemory`).
public enum NearestMemory: String, Sendable, Equatable, CaseIterable {
    case untilForgotten = "forget"
    /// No older than `staleAfter`: a packet that old is one the engine already takes to say
    /// nothing about where the beacon is now (a beacon heard only then is stale).
    case staleAfter = "stale"
    /// No stand-ins from before the last `max(nearestWindow, advertisingInterval)` seconds, and
    /// at least the newest packet: the window in time, not packets, so a sparse beacon's level is
    /// its latest evidence as the 2-s window is a dense one's (a beacon whose interval is within
    /// the window and that sent 3 or more packets in it is unchanged).
    case oneInterval = "interval"
}
