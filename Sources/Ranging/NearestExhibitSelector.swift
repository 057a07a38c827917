import BeaconFormats

/// Chooses the exhibit the visitor is nearest, with hysteresis so two exhibits at nearly the same
/// distance do not make it flicker.
///
/// Candidates are beacons whose (hysteresis) proximity is immediate or near. The holder keeps the
/// title until a challenger is closer by `margin` (a fraction of the holder's distance: 0.2 means
/// 20% closer, about 1.9 dB at n = 2) continuously for `challengeTime` seconds, and the holder has
/// held it at least `minimumHold` seconds. When the holder stops being a candidate (far, silent,
/// forgotten) the closest candidate takes over at once, or nobody.
public struct NearestExhibitSelector: Sendable, Equatable {
    public var margin: Double
    public var challengeTime: Double
    public var minimumHold: Double
    public private(set) var holder: BeaconIdentity?
    private var heldSince: Double = 0
    private var challenger: BeaconIdentity?
    private var challengerSince: Double = 0

    public init(margin: Double = 0.2, challengeTime: Double = 1.0, minimumHold: Double = 2.0) {
        self.margin = margin
        self.challengeTime = challengeTime
        self.minimumHold = minimumHold
    }

    /// One candidate: a stable key and its distance in metres.
    public struct Candidate: Sendable, Equatable {
        public var key: BeaconIdentity
        public var distance: Double

        public init(key: BeaconIdentity, distance: Double) {
            self.key = key
            self.distance = distance
        }
    }

    /// Feeds this tick's candidates; returns the nearest exhibit or nil.
    public mutating func update(candidates: [Candidate], at time: Double) -> BeaconIdentity? {
        guard let best = candidates.min(by: { ($0.distance, $0.key) < ($1.distance, $1.key) }) else {
            holder = nil
            challenger = nil
            return nil
        }
        guard let current = holder, let held = candidates.first(where: { $0.key == current }) else {
            holder = best.key
            heldSince = time
            challenger = nil
            return holder
        }
        guard best.key != current, best.distance < held.distance * (1 - margin) else {
            challenger = nil
            return holder
        }
        if challenger != best.key {
            challenger = best.key
            challengerSince = time
        }
        if time - challengerSince >= challengeTime, time - heldSince >= minimumHold {
            holder = best.key
            heldSince = time
            challenger = nil
        }
        return holder
    }
}
