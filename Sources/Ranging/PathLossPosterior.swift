import Foundation
import Synchronization

/// What the default distance model assumes about phones and rooms, beyond the beacon's own
/// calibration, and where a phone may be. The phones' and rooms' part is learned from the HERALD
/// runs; where a phone may be is fixed on physical grounds, never learned (docs/ranging.md,
/// "Distance"). Every field is a `RangingConfiguration` default.
///
/// The model (log-distance with an uncertain exponent, Gaussian in dB):
///
///     P1m - rssi = 10 n log10(d) + e,   n ~ N(n0, exponentSpread²),   e ~ N(0, shadowing²)
///     log10(d) ~ Uniform(log10 nearestDistance, log10 farthestDistance)
///     plus, on `bodyShare` of the readings, a body's loss ~ Uniform(0, bodyLoss) dB in x
///
/// so the deviation of the filtered RSSI from the line grows with distance from the 1 m calibration
/// (`shadowing² + (10 exponentSpread log10 d)²`): near 1 m only multipath and the calibration's own
/// error count; far from it, not knowing the phone's exponent dominates. A phone whose RSSI barely
/// changes with distance is one of the exponents the model allows, so its range comes out wide.
public struct PathLossPrior: Sendable, Hashable {
    /// Spread (standard deviation) of the path-loss exponent around the configured one: phones and
    /// rooms differ (0.57-2.35 on the HERALD runs); the spread of the next phone's, wider than the
    /// runs' own (`RangingEvaluation.PathLossFit.predictiveFactor`).
    public var exponentSpread: Double
    /// The error (standard deviation) of an exponent a catalog gives, taken as a measurement from a
    /// second calibration point: one more spot has its own multipath (on the HERALD runs, the
    /// exponent from medians at 1 m and 2 m misses the run's own by 1.2 typically).
    public var calibratedExponentSpread: Double
    /// Standard deviation (dB) of what the filtered RSSI does that no exponent explains: multipath
    /// at the spot, body, and the error of the 1 m calibration itself.
    public var shadowing: Double
    /// Where BLE proximity ranging is used (m): the prior on distance is flat in log distance
    /// between them and zero outside. Fixed a priori (0.1 m: nearer, the phone touches the beacon
    /// and the far-field law fails; 30 m: beyond, a hall's RSSI cannot tell 30 m from 100 m), never
    /// learned from runs: where the rig stood is the test's protocol, not a property of phones.
    public var nearestDistance: Double
    public var farthestDistance: Double
    /// The carrier's body in the path (dB, and the share of readings it is in): fixed a priori
    /// (10 dB, 1/2), never learned: the HERALD rig had no body, and a carried phone has its back
    /// to half the beacons around it. 0 leaves the term out.
    public var bodyLoss: Double
    public var bodyShare: Double
    /// How much wider (above 1) or narrower than the model's own interval each end of
    /// `accuracyRange` is drawn, learned so that the range holds the truth as often as it says on
    /// real runs: the near end is the model's quantile of probability `Phi(-rangeScaleNear z_p)`,
    /// the far end its quantile of `1 - Phi(-rangeScaleFar z_p)` (z_p the two-sided normal quantile
    /// of the stated probability p); 1 and 1 trust the model as it is. One value ships for both:
    /// a scale per end (a flat phone's truth lies beyond the far end, a steep phone's below the
    /// near end) was measured leave-one-run-out and not kept (docs/ranging-history.md, "Fourth round").
    public var rangeScaleNear: Double
    public var rangeScaleFar: Double
    /// The loss's second slope beyond the rig's reach (`PathLossFarSlope`); nil: one slope to
    /// `farthestDistance`, as ships (the tenth round's three variants were tried on tuning seeds
    /// and none met the rule written before them: docs/ranging-history.md, "Tenth round").
    public var farSlope: PathLossFarSlope?

    public init(exponentSpread: Double, calibratedExponentSpread: Double, shadowing: Double,
                nearestDistance: Double = 0.1, farthestDistance: Double = 30, bodyLoss: Double = 10, bodyShare: Double = 0.5,
                rangeScaleNear: Double = 1, rangeScaleFar: Double = 1, farSlope: PathLossFarSlope? = nil) {
        self.exponentSpread = exponentSpread
        self.calibratedExponentSpread = calibratedExponentSpread
        self.shadowing = shadowing
        self.nearestDistance = nearestDistance
        self.farthestDistance = farthestDistance
        self.bodyLoss = bodyLoss
        self.bodyShare = bodyShare
        self.rangeScaleNear = rangeScaleNear
        self.rangeScaleFar = rangeScaleFar
        self.farSlope = farSlope
    }

    /// Everything learned on all seven HERALD runs by `RangingEvaluation` (`ModelLearning`; a test
    /// keeps these in step), exactly as each run's figures are produced from the other six:
    /// the spreads and the shadowing by `PathLossFit`; the range's scale (one for both ends) so
    /// that the training run farthest from 80% is as near it as any scale makes it. The distance
    /// bounds are the fixed 0.1-30 m.
    public static let herald = PathLossPrior(
        exponentSpread: 0.90, calibratedExponentSpread: 1.22, shadowing: 4.75, rangeScaleNear: 0.64, rangeScaleFar: 0.64
    )

    /// The model's posterior mass left below the reported range's near end and above its far end
    /// when the range is reported with `probability` (see `rangeScaleNear`).
    public func modelTails(reporting probability: Double) -> (near: Double, far: Double) {
        let z = NormalQuantile.twoSided(probability)
        return (NormalQuantile.upperTail(rangeScaleNear * z), NormalQuantile.upperTail(rangeScaleFar * z))
    }
}

/// The posterior over distance given `x = P1m - filtered RSSI` (dB) under `PathLossPrior`, tabulated
/// once per (prior, exponent, spread, range tails) on a 0.25 dB grid of x: its median (the
/// distance shown: the estimate with the least expected absolute error) and the interval that
/// leaves the key's tails below and above it (`accuracyRange`).
///
/// Why a table: the posterior has no closed form (the variance depends on d), and computing it per
/// beacon per tick (a few hundred exponentials) would cost more than the rest of a tick. The table
/// is built once (0.26 M exponentials) and shared by every engine through `shared(...)`.
public final class PathLossPosteriorTable: Sendable {
    public struct Key: Sendable, Hashable {
        public var exponent: Double
        public var exponentSpread: Double
        public var shadowing: Double
        public var nearestDistance: Double
        public var farthestDistance: Double
        public var bodyLoss: Double
        public var bodyShare: Double
        /// The posterior mass below the range's near end and above its far end.
        public var nearTail: Double
        public var farTail: Double
        /// The second slope beyond the breakpoint, or nil for one slope (`PathLossPrior.farSlope`).
        public var farSlope: PathLossFarSlope?

        public init(exponent: Double, exponentSpread: Double, shadowing: Double, nearestDistance: Double,
                    farthestDistance: Double, bodyLoss: Double, bodyShare: Double, nearTail: Double, farTail: Double,
                    farSlope: PathLossFarSlope? = nil) {
            self.exponent = exponent
            self.exponentSpread = exponentSpread
            self.shadowing = shadowing
            self.nearestDistance = nearestDistance
            self.farthestDistance = farthestDistance
            self.bodyLoss = bodyLoss
            self.bodyShare = bodyShare
            self.nearTail = nearTail
            self.farTail = farTail
            self.farSlope = farSlope
        }
    }

    public let key: Key
    // Literals here (not the grid's): `estimate` runs per beacon per tick.
    static let xLow = -40.0
    static let xStep = 0.25
    static let xCount = 521 // -40 ... +90 dB
    /// log10 of the distance at the lower bound, median and upper bound, per x.
    private let lower: [Double]
    private let middle: [Double]
    private let upper: [Double]

    public init(_ key: Key) {
        self.key = key
        let grid = PathLossPosteriorGrid(key)
        let (nearTail, farTail) = (Self.clampedTail(key.nearTail), Self.clampedTail(key.farTail))
        var lower = [Double](repeating: 0, count: Self.xCount)
        var middle = lower, upper = lower
        var weights = [Double](repeating: 0, count: PathLossPosteriorGrid.lCount)
        for i in 0..<Self.xCount {
            let total = grid.weights(row: i, into: &weights)
            lower[i] = grid.quantile(nearTail, weights: weights, total: total)
            middle[i] = grid.quantile(0.5, weights: weights, total: total)
            upper[i] = grid.quantile(1 - farTail, weights: weights, total: total)
        }
        self.lower = lower
        self.middle = middle
        self.upper = upper
    }

    /// A tail the table can place: at least a millionth (a range to the ends of the grid says
    /// nothing), at most just under half (the range must hold the median).
    static func clampedTail(_ tail: Double) -> Double { min(max(tail.isFinite ? tail : 0.1, 1e-6), 0.499) }

    /// The distance (posterior median, m) and the stated-probability range for `x = P1m - rssi` dB.
    /// x outside -40...+90 dB is clamped (closer than a few cm, or beyond any room).
    public func estimate(x: Double) -> (distance: Double, range: ClosedRange<Double>) {
        let position = min(max((x - Self.xLow) / Self.xStep, 0), Double(Self.xCount - 1))
        let index = min(Int(position), Self.xCount - 2)
        let f = position - Double(index)
        func at(_ values: [Double]) -> Double { pow(10, values[index] + (values[index + 1] - values[index]) * f) }
        return (at(middle), at(lower)...at(upper))
    }

    /// The table for `key`, built on first use and kept: engines, the monitor and the evaluation
    /// ask for the same few keys over and over.
    public static func shared(_ key: Key) -> PathLossPosteriorTable {
        if let table = cache.withLock({ $0[key] }) { return table }
        let table = PathLossPosteriorTable(key)
        cache.withLock { cache in
            if cache.count > 64 { cache.removeAll() }
            cache[key] = table
        }
        return table
    }

    private static let cache = Mutex<[Key: PathLossPosteriorTable]>([:])
}

/// Quantiles of the standard normal distribution.
public enum NormalQuantile {
    /// z such that P(-z < Z < z) = `probability` (0 < probability < 1): the inverse of erf, by
    /// bisection (called once per tick per beacon at most on the non-default models; 60 steps
    /// reach double precision).
    public static func twoSided(_ probability: Double) -> Double {
        let p = min(max(probability, 1e-9), 1 - 1e-12)
        var low = 0.0, high = 40.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if erf(mid / 2.0.squareRoot()) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// P(Z > z) for the standard normal.
    public static func upperTail(_ z: Double) -> Double { erfc(z / 2.0.squareRoot()) / 2 }
}
