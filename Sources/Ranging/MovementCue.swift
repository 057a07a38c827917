import Foundation

/// The fourteenth round's movement cue (docs/ranging-history.md, "Fourteenth round"): did the
/// beacons heard since the previous tick change, each against its own recent level, by more than
/// their own noise explains *and not all alike*?
///
/// Each beacon gives one change `d` (the mean RSSI of its packets since the previous tick minus the
/// mean of its packets before it, `ArrivalRing.change`) with variance `v = σ² (1/n + 1/m)` from its
/// own per-packet noise σ. Noise and fades are roughly independent across beacons; a visitor's
/// move changes several at once in opposite directions (the beacon ahead rises, the ones behind
/// fall), while a turn of the phone or the body, or the receiver's gain, shifts all of them alike.
/// So the statistic is Cochran's Q (W. G. Cochran, "The combination of estimates from different
/// experiments", Biometrics 10, 1954), the spread of the changes around their precision-weighted
/// mean, `Q = Σ (d − d̄)² / v`: with k beacons and no move it is χ² with k − 1 degrees of freedom
/// under Gaussian noise, whatever the common shift. The cue fires when Q's χ² tail probability is
/// below a level fixed in advance; one beacon alone never fires it.
public struct MovementCue: Sendable, Equatable {
    private var weights = 0.0, weightedChanges = 0.0, weightedSquares = 0.0
    /// Beacons that gave a change.
    public private(set) var beacons = 0

    public init() {}

    /// One beacon's change (dB) and its variance (dB²).
    public mutating func add(change: Double, variance: Double) {
        guard variance > 0, change.isFinite else { return }
        let weight = 1 / variance
        weights += weight
        weightedChanges += weight * change
        weightedSquares += weight * change * change
        beacons += 1
    }

    /// Cochran's Q (0 with fewer than two beacons).
    public var heterogeneity: Double {
        beacons < 2 ? 0 : max(0, weightedSquares - weightedChanges * weightedChanges / weights)
    }

    /// The chance of a Q at least this large with no move (nil with fewer than two beacons).
    public var tailProbability: Double? {
        beacons < 2 ? nil : Self.chiSquareTail(heterogeneity, degreesOfFreedom: beacons - 1)
    }

    /// The sum of the squared standardized changes, `Σ d² / v` (the normalized innovation squared
    /// of tracking, Bar-Shalom's maneuver test): χ² with k degrees of freedom with no move. Unlike
    /// Q it counts a common shift, and one beacon alone can fire it.
    public var magnitude: Double { weightedSquares }

    /// The chance of a `magnitude` at least this large with no move (nil with no beacon).
    public var magnitudeTailProbability: Double? {
        beacons < 1 ? nil : Self.chiSquareTail(magnitude, degreesOfFreedom: beacons)
    }

    /// P(χ²ₖ ≥ x), exact: erfc(√(x/2)) for one degree of freedom, e^(−x/2) for two, and each two
    /// more add e^(−x/2) (x/2)^(k/2) / Γ(k/2 + 1) (Abramowitz and Stegun 26.4.4, 26.4.5).
    public static func chiSquareTail(_ x: Double, degreesOfFreedom k: Int) -> Double {
        guard k >= 1 else { return 1 }
        guard x > 0 else { return 1 }
        let half = x / 2
        var tail = k % 2 == 1 ? erfc(half.squareRoot()) : exp(-half)
        var dof = k % 2 == 1 ? 1 : 2
        while dof < k {
            let a = Double(dof) / 2
            tail += exp(a * log(half) - half - lgamma(a + 1))
            dof += 2
        }
        return min(1, tail)
    }
}
