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
    /// How much wider (above 1) or narrower than the model's own interval `accuracyRange` is drawn,
    /// learned so that it holds the truth as often as it says on real runs: the model's interval
    /// of probability `2 Phi(rangeScale z_p) - 1` is reported as the interval of probability p.
    /// (A model of seven phones is not exactly any eighth phone; 1 trusts the model as it is.)
    public var rangeScale: Double

    public init(exponentSpread: Double, calibratedExponentSpread: Double, shadowing: Double,
                nearestDistance: Double = 0.1, farthestDistance: Double = 30, bodyLoss: Double = 10, bodyShare: Double = 0.5,
                rangeScale: Double = 1) {
        self.exponentSpread = exponentSpread
        self.calibratedExponentSpread = calibratedExponentSpread
        self.shadowing = shadowing
        self.nearestDistance = nearestDistance
        self.farthestDistance = farthestDistance
        self.bodyLoss = bodyLoss
        self.bodyShare = bodyShare
        self.rangeScale = rangeScale
    }

    /// Everything learned on all seven HERALD runs by `RangingEvaluation` (`ModelLearning`; a test
    /// keeps these in step), exactly as each run's figures are produced from the other six:
    /// the spreads and the shadowing by `PathLossFit`; the range's scale so that the 80% range
    /// holds the truth on 80% of the ticks of the runs it is worst and best on, equally far either
    /// side. The distance bounds are the fixed 0.1-30 m.
    public static let herald = PathLossPrior(
        exponentSpread: 0.90, calibratedExponentSpread: 1.22, shadowing: 4.75, rangeScale: 0.64
    )

    /// The probability of the model's own interval that is reported as `probability`'s (see
    /// `rangeScale`).
    public func modelProbability(reporting probability: Double) -> Double {
        guard rangeScale != 1 else { return probability }
        return erf(rangeScale * NormalQuantile.twoSided(probability) / 2.0.squareRoot())
    }
}

/// The posterior over distance given `x = P1m - filtered RSSI` (dB) under `PathLossPrior`, tabulated
/// once per (prior, exponent, spread, probability) on a 0.25 dB grid of x: its median (the
/// distance shown: the estimate with the least expected absolute error) and its central interval of
/// the stated probability (`accuracyRange`).
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
        public var probability: Double

        public init(exponent: Double, exponentSpread: Double, shadowing: Double, nearestDistance: Double,
                    farthestDistance: Double, bodyLoss: Double, bodyShare: Double, probability: Double) {
            self.exponent = exponent
            self.exponentSpread = exponentSpread
            self.shadowing = shadowing
            self.nearestDistance = nearestDistance
            self.farthestDistance = farthestDistance
            self.bodyLoss = bodyLoss
            self.bodyShare = bodyShare
            self.probability = probability
        }
    }

    public let key: Key
    static let xLow = -40.0
    static let xStep = 0.25
    static let xCount = 521 // -40 ... +90 dB
    /// log10 of the distance at the lower bound, median and upper bound, per x.
    private let lower: [Double]
    private let middle: [Double]
    private let upper: [Double]

    public init(_ key: Key) {
        self.key = key
        // Grid over log10 d from 1 cm to 1 km: wider than any prior puts mass on.
        let lCount = 501
        let lLow = -2.0, lStep = 5.0 / Double(lCount - 1)
        let (near, far) = (log10(max(key.nearestDistance, 0.01)), log10(min(max(key.farthestDistance, key.nearestDistance), 1000)))
        var inside = [Bool](repeating: false, count: lCount)
        var slope = [Double](repeating: 0, count: lCount)
        var variance = [Double](repeating: 1, count: lCount)
        for j in 0..<lCount {
            let l = lLow + Double(j) * lStep
            let spread = 10 * key.exponentSpread * l
            variance[j] = key.shadowing * key.shadowing + spread * spread + 1e-9
            slope[j] = 10 * key.exponent * l
            // Flat in log distance inside the bounds, nothing outside.
            inside[j] = l >= near - lStep / 2 && l <= far + lStep / 2
        }
        let tail = (1 - min(max(key.probability, 0.01), 0.999)) / 2
        let body = max(key.bodyLoss, 0), share = body > 0 ? min(max(key.bodyShare, 0), 1) : 0
        var lower = [Double](repeating: 0, count: Self.xCount)
        var middle = lower, upper = lower
        var weights = [Double](repeating: 0, count: lCount)
        for i in 0..<Self.xCount {
            let x = Self.xLow + Double(i) * Self.xStep
            var total = 0.0
            for j in 0..<lCount where inside[j] {
                weights[j] = Self.likelihood(x - slope[j], variance: variance[j], body: body, share: share)
                total += weights[j]
            }
            lower[i] = Self.quantile(tail, weights: weights, total: total, low: lLow, step: lStep)
            middle[i] = Self.quantile(0.5, weights: weights, total: total, low: lLow, step: lStep)
            upper[i] = Self.quantile(1 - tail, weights: weights, total: total, low: lLow, step: lStep)
        }
        self.lower = lower
        self.middle = middle
        self.upper = upper
    }

    /// The density (times sqrt(2 pi)) of the residual `r = x - 10 n0 log10 d` at a distance whose
    /// spread is `variance`: no body (a normal) on `1 - share` of readings, a body's extra loss
    /// drawn evenly from 0 to `body` dB on the rest (the normal convolved with that: a difference
    /// of two normal CDFs over the width).
    static func likelihood(_ r: Double, variance: Double, body: Double, share: Double) -> Double {
        let sd = variance.squareRoot()
        let clear = exp(-0.5 * r * r / variance) / sd
        guard share > 0 else { return clear }
        let blocked = (erf(r / (sd * 2.0.squareRoot())) - erf((r - body) / (sd * 2.0.squareRoot()))) / 2 / body
        return (1 - share) * clear + share * blocked * (2 * Double.pi).squareRoot()
    }

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

    /// The log10 d below which `fraction` of the posterior mass lies: the weights are the density at
    /// grid points, so the mass of each cell is spread evenly across it.
    private static func quantile(_ fraction: Double, weights: [Double], total: Double, low: Double, step: Double) -> Double {
        let target = fraction * total
        var cumulative = 0.0
        for j in weights.indices {
            let next = cumulative + weights[j]
            if next >= target {
                let within = weights[j] > 0 ? (target - cumulative) / weights[j] : 0
                return low + (Double(j) - 0.5 + within) * step
            }
            cumulative = next
        }
        return low + Double(weights.count - 1) * step
    }
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
}
