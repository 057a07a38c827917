import Foundation

/// Calibration math for a beacon installation: the measured power (RSSI at 1 m) from samples
/// taken at 1 m, and the path-loss exponent from samples at known distances.
public enum Calibration {
    /// Why calibration samples cannot give an answer.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    public struct MeasuredPower: Sendable, Equatable {
        /// Trimmed mean, dBm: the value to put in the catalog's `measuredPower`.
        public var dBm: Double
        /// Standard deviation of the kept samples, dB.
        public var spread: Double
        /// 10th and 90th percentiles of all samples, dBm.
        public var p10: Double
        public var p90: Double
        public var samples: Int
        public var kept: Int
    }

    /// Measured power from at least `minimumSamples` (20) RSSI samples at 1 m: the mean after
    /// dropping `trim` (10%) of the samples at each end, which keeps deep fades and the odd
    /// reflection peak out, as iOS calibration and the Android running average do.
    public static func measuredPower(samples: [Double], trim: Double = 0.1, minimumSamples: Int = 20) throws(Failure) -> MeasuredPower {
        let finite = samples.filter(\.isFinite)
        guard finite.count >= minimumSamples else {
            throw Failure(reason: "need at least \(minimumSamples) samples at 1 m, got \(finite.count)")
        }
        guard trim >= 0, trim < 0.5 else { throw Failure(reason: "trim must be within 0..<0.5") }
        let sorted = finite.sorted()
        let drop = Int((Double(sorted.count) * trim).rounded(.down))
        let kept = Array(sorted[drop..<(sorted.count - drop)])
        let mean = kept.reduce(0, +) / Double(kept.count)
        let variance = kept.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(1, kept.count - 1))
        return MeasuredPower(
            dBm: mean, spread: variance.squareRoot(),
            p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9),
            samples: sorted.count, kept: kept.count
        )
    }

    public struct PathLoss: Sendable, Equatable {
        /// Fitted (or given) RSSI at 1 m, dBm.
        public var measuredPower: Double
        /// Fitted path-loss exponent n.
        public var exponent: Double
        /// Root-mean-square residual of the fit, dB.
        public var residual: Double
        public var samples: Int
    }

    /// Fits `rssi = P1m - 10 n log10(d)` by least squares to samples at two or more distinct
    /// distances (metres, > 0). With `measuredPower` given only n is fitted (regression through
    /// the known intercept); otherwise both.
    public static func pathLoss(samples: [(distance: Double, rssi: Double)], measuredPower: Double? = nil) throws(Failure) -> PathLoss {
        let usable = samples.filter { $0.distance > 0 && $0.distance.isFinite && $0.rssi.isFinite }
        let distinct = Set(usable.map(\.distance))
        guard distinct.count >= (measuredPower == nil ? 2 : 1), !usable.isEmpty else {
            throw Failure(reason: "need samples at two or more distinct distances above 0 m, got \(distinct.count)")
        }
        // x = -10 log10(d): rssi = P1m + n x
        let xs = usable.map { -10 * log10($0.distance) }
        let ys = usable.map(\.rssi)
        let count = Double(usable.count)
        let intercept: Double
        let slope: Double
        if let power = measuredPower {
            let sxx = xs.reduce(0) { $0 + $1 * $1 }
            guard sxx > 0 else { throw Failure(reason: "all samples are at 1 m: the exponent cannot be fitted") }
            slope = zip(xs, ys).reduce(0) { $0 + $1.0 * ($1.1 - power) } / sxx
            intercept = power
        } else {
            let mx = xs.reduce(0, +) / count
            let my = ys.reduce(0, +) / count
            let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
            let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
            slope = sxy / sxx
            intercept = my - slope * mx
        }
        let squared = zip(xs, ys).reduce(0) { sum, pair in
            let residual = pair.1 - (intercept + slope * pair.0)
            return sum + residual * residual
        }
        return PathLoss(measuredPower: intercept, exponent: slope, residual: (squared / count).squareRoot(), samples: usable.count)
    }

    /// Linear-interpolated percentile of sorted values (`fraction` in 0...1).
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}
