import Foundation

/// How far the distance target is from what a log-distance model can reach on a run at all:
/// beacontop's filtered loss at each scored tick (the filter with the noise floor it ships with) through a line `d = 10^(loss / (10 n))` with the
/// exponent n that minimises *this run's own* median error, chosen on the scored run itself (0.3 to
/// 6 by 0.01). That is knowledge no pipeline has, so this is not a figure of beacontop: it is a
/// bound that says whether any exponent learned elsewhere could have met the target there.
public enum HindsightBound {
    public static let exponents = stride(from: 0.3, through: 6.0, by: 0.01).map { $0 }

    /// The best exponent for the run and its median error (m) on the run's scored ticks.
    public static func best(_ run: ModelLearning.TrainingRun, floor: Double) -> (exponent: Double, error: Double) {
        var best = (exponent: Double.nan, error: Double.infinity)
        for exponent in exponents {
            let error = medianError(run, floor: floor, exponent: exponent)
            if error < best.error { best = (exponent, error) }
        }
        return best
    }

    public static func medianError(_ run: ModelLearning.TrainingRun, floor: Double, exponent: Double) -> Double {
        let losses = run.lossesByFloor[ModelLearning.noiseFloors.firstIndex(of: floor) ?? 0]
        return median(zip(losses, run.truths).map { abs(pow(10, $0 / (10 * exponent)) - $1) }) ?? .nan
    }
}
