import Foundation

/// The CUSUM threshold that keeps a beacon's false restarts per *second* where the reference rate
/// puts them, whatever the beacon's own packet rate.
///
/// Why: a threshold fixed per sample fixes the false-alarm rate per sample, so a beacon heard once
/// every 2 s waits twenty times longer (in seconds) than one heard 10 times a second to confirm the
/// same move, for the same false alarms per hour. The default 8 σ was chosen at 10 adverts/s (the
/// fast-and-steady target's scripted beacon, `FilterTargetTests`; commit 9f20e8d raised it from
/// 7 σ there), so that is the reference rate. At a lower rate the threshold is lowered until the
/// in-control average run length in seconds equals the reference's; at or above the reference rate
/// it stays 8 σ (dense beacons are unchanged); it never goes below `floor`, fixed before any score
/// at the filter's innovation clip (3 σ), so one clipped packet (at most 3 − 0.75 = 2.25 σ of evidence) can
/// never confirm a move alone.
///
/// The run length is Siegmund's approximation for a one-sided CUSUM with slack k and threshold h
/// (σ units) on in-control N(0, 1) samples (D. Siegmund, Sequential Analysis, Springer 1985; as
/// given in D. C. Montgomery, Introduction to Statistical Quality Control, the CUSUM chapter):
/// ARL0 ≈ (e^{2kb} − 2kb − 1) / (2k²), b = h + 1.166. The filter's two sides halve it at every rate
/// alike, so matching one side matches both.
public enum CUSUMThreshold {
    /// The packet rate (per second) the default 8 σ was chosen at.
    public static let referenceRate = 10.0

    /// In-control average run length, in samples, of a one-sided CUSUM (Siegmund).
    public static func averageRunLength(slack k: Double, threshold h: Double) -> Double {
        let x = 2 * k * (h + 1.166)
        return (exp(x) - x - 1) / (2 * k * k)
    }

    /// The threshold whose in-control average run length is `samples` (the inverse of
    /// `averageRunLength`): solves e^x − x − 1 = 2k²·samples by x = ln(2k²·samples + 1 + x), which
    /// contracts (its slope is under 1 for x > 0) and settles in a few steps.
    public static func threshold(slack k: Double, averageRunLength samples: Double) -> Double {
        let c = 2 * k * k * max(samples, 0)
        var x = log(c + 1)
        for _ in 0..<8 { x = log(c + 1 + x) }
        return x / (2 * k) - 1.166
    }

    /// The threshold for a beacon received `rate` times a second whose false restarts per second
    /// equal those of `reference` σ at `referenceRate`: never above `reference`, never below `floor`.
    public static func matchingFalseAlarmsPerSecond(rate: Double, slack k: Double, reference: Double,
                                                    referenceRate: Double, floor: Double) -> Double {
        guard rate.isFinite, rate > 0 else { return floor }
        guard rate < referenceRate else { return reference }
        let seconds = averageRunLength(slack: k, threshold: reference) / referenceRate
        return min(reference, max(floor, threshold(slack: k, averageRunLength: seconds * rate)))
    }
}
