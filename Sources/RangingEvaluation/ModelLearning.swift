import Foundation
import Ranging

/// Everything beacontop's default distance model learns from real runs, learned the one way any
/// figure may be produced: for a held-out run, on the other runs only. The shipped defaults
/// (`PathLossPrior.herald`, `RangingConfiguration.pathLossExponent`) are the same learning on all
/// seven runs (a test keeps them in step).
///
/// In order, on the training runs:
/// 1. the exponent, its spread, the shadowing and the second point's error (`PathLossFit`);
/// 2. the prior on distance (typical distance and spread), chosen from a grid fixed in advance
///    (`typicalDistances` x `typicalDistanceSpreads`) by the issue's own criterion: the smallest
///    mean, over the training runs, of log(beacontop's median error / the best of the four field
///    pipelines' median error on that run); ties go to the first in grid order;
/// 3. together with the prior, the default filter's noise floor
///    (`AdaptiveKalmanRSSIFilter.Parameters.noiseFloor`, from `noiseFloors`), by the same criterion:
///    it sets how large a swing the filter's change detector takes for a move, and the first choice
///    (3 dB) had been measured on one of the scored runs;
/// 4. the range's scale (`PathLossPrior.rangeScale`), so that the stated-probability range holds
///    the truth on that share of ticks, on average over the training runs.
///
/// The engine's distance and range are a lookup of its loss (`P1m - filtered RSSI`) in the model's
/// table, and its filter does not depend on the model: so one pass of the real engine over each run
/// per noise floor gives the losses every candidate model is scored on (`TrainingRun`), and each
/// held-out run is then ranged again, from its packets, by an engine configured with what was learned.
public struct ModelLearning: Sendable {
    /// The grid the prior is chosen from: where a phone ranging a beacon indoors plausibly is (0.3
    /// to 2 m typically, spread 0.3 to 0.8 decades), fixed before any score was looked at.
    public static let typicalDistances = [0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.6, 2.0]
    public static let typicalDistanceSpreads = [0.3, 0.4, 0.5, 0.6, 0.8]
    /// The filter's noise floors (dB) to choose from: per-packet noise of real receivers, from a
    /// quiet link reading whole dBm (1) to a fading one (4).
    public static let noiseFloors = [1.0, 2.0, 3.0, 4.0]

    /// What one run contributes to training: its fit, and at the ticks every pipeline answered
    /// (the ticks each run is scored on) the truth and beacontop's loss with each noise floor.
    public struct TrainingRun: Sendable {
        public var name: String
        public var fit: PathLossFit.RunFit?
        public var truths: [Double]
        /// Per entry of `noiseFloors`.
        public var lossesByFloor: [[Double]]
        /// The best median error of the four pipelines on those ticks.
        public var bestTarget: Double
    }

    /// What was learned for one held-out run (or for none: the shipped defaults).
    public struct Learned: Sendable {
        public var fit: PathLossFit
        public var noiseFloor: Double
        public var typicalDistance: Double
        public var typicalDistanceSpread: Double
        public var rangeScale: Double
        /// The criterion's value on the training runs (mean log ratio to the best of the four).
        public var trainingCriterion: Double

        public var prior: PathLossPrior {
            PathLossPrior(
                exponentSpread: fit.exponentSpread, calibratedExponentSpread: fit.calibratedExponentSpread, shadowing: fit.shadowing,
                typicalDistance: typicalDistance, typicalDistanceSpread: typicalDistanceSpread, rangeScale: rangeScale
            )
        }

        /// `base` with this model as its distance model.
        public func configuration(_ base: RangingConfiguration = RangingConfiguration()) -> RangingConfiguration {
            var configuration = base
            configuration.adaptiveFilter.noiseFloor = noiseFloor
            configuration.distanceModel = .posterior(prior)
            configuration.pathLossExponent = fit.exponent
            return configuration
        }
    }

    public let training: [TrainingRun]
    /// Learned on every run but the named one.
    public let heldOut: [String: Learned]
    /// Learned on all runs: what ships.
    public let all: Learned

    /// - Parameters:
    ///   - priors: the grid of (typical distance, spread) to choose from; the default grid unless
    ///     given (`beacontop-bench ranging-eval --prior` fixes one).
    ///   - base: the engine's configuration apart from the learned model (filter, probability...).
    public init(traces: [RunTraces], priors: [(Double, Double)]? = nil, base: RangingConfiguration = RangingConfiguration()) {
        let grid = priors ?? Self.typicalDistances.flatMap { d in Self.typicalDistanceSpreads.map { (d, $0) } }
        training = traces.map(\.training)
        var heldOut: [String: Learned] = [:]
        for run in training {
            heldOut[run.name] = Self.learn(training.filter { $0.name != run.name }, priors: grid, probability: base.rangeProbability)
        }
        self.heldOut = heldOut
        all = Self.learn(training, priors: grid, probability: base.rangeProbability)
    }

    public static func learn(_ runs: [TrainingRun], priors: [(Double, Double)], probability: Double) -> Learned {
        let fit = PathLossFit.learn(runs.compactMap(\.fit))
        var chosen = Learned(fit: fit, noiseFloor: 3, typicalDistance: 1, typicalDistanceSpread: 0.4, rangeScale: 1, trainingCriterion: .infinity)
        var floorIndex = 0
        for floor in noiseFloors.indices {
            for (distance, spread) in priors {
                var candidate = chosen
                candidate.noiseFloor = noiseFloors[floor]
                candidate.typicalDistance = distance
                candidate.typicalDistanceSpread = spread
                let table = candidate.prior.table(exponent: fit.exponent, probability: probability)
                let ratios = runs.map { run in log(medianError(run, floor: floor, table) / run.bestTarget) }
                let criterion = ratios.reduce(0, +) / Double(max(1, ratios.count))
                if criterion < chosen.trainingCriterion {
                    candidate.trainingCriterion = criterion
                    chosen = candidate
                    floorIndex = floor
                }
            }
        }
        // Coverage grows with the scale: bisect (in log scale) for the stated probability.
        var low = 0.25, high = 4.0
        for _ in 0..<16 {
            let middle = (low * high).squareRoot()
            var candidate = chosen
            candidate.rangeScale = middle
            let table = candidate.prior.table(exponent: fit.exponent, probability: probability)
            let coverage = runs.map { coverageShare($0, floor: floorIndex, table) }.reduce(0, +) / Double(max(1, runs.count))
            if coverage < probability { low = middle } else { high = middle }
        }
        chosen.rangeScale = (low * high).squareRoot()
        return chosen
    }

    static func medianError(_ run: TrainingRun, floor: Int, _ table: PathLossPosteriorTable) -> Double {
        median(zip(run.lossesByFloor[floor], run.truths).map { abs(table.estimate(x: $0).distance - $1) }) ?? .nan
    }

    static func coverageShare(_ run: TrainingRun, floor: Int, _ table: PathLossPosteriorTable) -> Double {
        let held = zip(run.lossesByFloor[floor], run.truths).filter { table.estimate(x: $0).range.contains($1) }.count
        return Double(held) / Double(max(1, run.truths.count))
    }
}
