import Foundation
import Ranging

/// Learns the default distance model's numbers from real runs, the way every figure in the
/// evaluation is produced: on the runs *other* than the one scored (leave-one-run-out); the shipped
/// defaults (`PathLossPrior.herald`, `RangingConfiguration.pathLossExponent`) are the same fit on
/// all seven runs (a test keeps them in step).
///
/// Per run: the median RSSI at each distance the rig stood at within 0.25-3.4 m (a median, so the
/// per-packet noise the filter removes does not count), relative to the run's 1 m calibration;
/// the exponent through the calibration point by least squares (weighted by time spent there), and
/// the RMS residual in dB. Across runs: the mean exponent, the spread of the next phone's exponent
/// (the exponents' standard deviation widened by `predictiveFactor`), the RMS of the residuals. For the second calibration point: the spread, across runs, of the exponent a
/// technician gets from medians at 1 m and one more distance around the run's fitted exponent.
public struct PathLossFit: Sendable, Equatable {
    public var exponent: Double
    public var exponentSpread: Double
    public var shadowing: Double
    public var calibratedExponentSpread: Double

    /// The per-run figures the fit is made of.
    public struct RunFit: Sendable, Equatable {
        public var name: String
        public var exponent: Double
        public var residual: Double
        /// From 1 m and `secondCalibrationDistance` alone; nil when the run has no samples there.
        public var twoPointExponent: Double?
    }

    /// The distance of the second calibration point: 2 m, or the farthest the rig went when it
    /// stopped short of that (one run ends at 1.5 m).
    public static func secondCalibrationDistance(for run: HeraldRun) -> Double {
        min(2.0, (run.farthest * 100).rounded(.down) / 100)
    }

    public static func runFit(_ run: HeraldRun) -> RunFit? {
        guard let power = run.measuredPowerAtOneMetre else { return nil }
        var byDistance: [Int: [Double]] = [:]
        for sample in run.samples where RunProtocol.scoredDistances.contains(sample.distance) {
            byDistance[Int((sample.distance * 100).rounded()), default: []].append(sample.rssi)
        }
        var sxx = 0.0, sxy = 0.0, weight = 0.0
        var points: [(l: Double, x: Double, w: Double)] = []
        // In distance order: a dictionary's order changes from process to process, and sums in
        // another order differ in the last bit, which the evaluation's output must not.
        for (centimetres, values) in byDistance.sorted(by: { $0.key < $1.key }) {
            guard let level = median(values) else { continue }
            let l = log10(Double(centimetres) / 100)
            let w = Double(values.count)
            points.append((l, power - level, w))
            sxx += w * l * l
            sxy += w * l * (power - level)
            weight += w
        }
        guard sxx > 0 else { return nil }
        let exponent = sxy / (10 * sxx)
        let squared = points.reduce(0) { $0 + $1.w * pow($1.x - 10 * exponent * $1.l, 2) }
        let second = secondCalibrationDistance(for: run)
        let twoPoint = run.medianRSSI(at: second).flatMap { level -> Double? in
            second == 1 ? nil : (power - level) / (10 * log10(second))
        }
        return RunFit(name: run.name, exponent: exponent, residual: (squared / weight).squareRoot(), twoPointExponent: twoPoint)
    }

    public static func learn(_ fits: [RunFit]) -> PathLossFit {
        let exponents = fits.map(\.exponent)
        let mean = exponents.reduce(0, +) / Double(max(1, exponents.count))
        let sample = (exponents.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(1, exponents.count - 1))).squareRoot()
        let spread = sample * predictiveFactor(runs: exponents.count)
        let shadowing = (fits.reduce(0) { $0 + $1.residual * $1.residual } / Double(max(1, fits.count))).squareRoot()
        let misses = fits.compactMap { fit in fit.twoPointExponent.map { clampCalibratedExponent($0) - fit.exponent } }
        let calibrated = (misses.reduce(0) { $0 + $1 * $1 } / Double(max(1, misses.count))).squareRoot()
        return PathLossFit(exponent: mean, exponentSpread: spread, shadowing: shadowing, calibratedExponentSpread: calibrated)
    }

    /// How much wider the next phone's exponent is spread than the k seen ones' sample deviation:
    /// its predictive distribution is Student's t with k - 1 degrees of freedom and scale
    /// `sample sqrt(1 + 1/k)` (the mean is itself estimated from k phones); the model takes it as
    /// the normal that matches it at the 80% range's quantile (the t's 0.9 quantile, by its
    /// Cornish-Fisher expansion, over the normal's). 1.24 for six phones, 1.20 for seven.
    public static func predictiveFactor(runs k: Int) -> Double {
        guard k > 1 else { return 1 }
        let z = 1.281_551_6, nu = Double(k - 1)
        let t = z + (z * z * z + z) / (4 * nu) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu)
        return (1 + 1 / Double(k)).squareRoot() * t / z
    }

    /// What a catalog accepts as a second-point exponent (above 0, at most 10): a technician
    /// whose two medians came out the wrong way round would enter the smallest sane value.
    public static func clampCalibratedExponent(_ exponent: Double) -> Double { min(max(exponent, 0.5), 6) }
}
