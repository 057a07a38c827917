import Foundation
import Ranging

/// Everything beacontop's default distance model learns from real runs, learned the one way any
/// figure may be produced: for a held-out run, on the other runs only. The shipped defaults
/// (`PathLossPrior.herald`, `RangingConfiguration.pathLossExponent`) are the same learning on all
/// seven runs (a test keeps them in step).
///
/// In order, on the training runs:
/// 1. the exponent, its spread, the shadowing and the second point's error (`PathLossFit`);
/// 2. the default filter's noise floor (`AdaptiveKalmanRSSIFilter.Parameters.noiseFloor`, from
///    `noiseFloors`), by the issue's own criterion: the smallest mean, over the training runs, of
///    log(beacontop's median error / the best of the four field pipelines' median error on that
///    run); ties go to the first. It sets how large a swing the filter's change detector takes for
///    a move (a property of receivers and rooms);
/// 3. the range's scale (`PathLossPrior.rangeScaleNear` and `rangeScaleFar`, equal unless
///    `separateEnds`), by a criterion on each training run's coverage, not their average: the scale
///    at which the training run farthest from the stated probability is as near it as any scale
///    makes it, then the next farthest (`RangeScales`), each training run's coverage taken under
///    the model fitted on the other training runs (leave-one-out inside the training runs).
///
/// The prior on distance is not learned: it is fixed (`PathLossPrior.nearestDistance`,
/// `farthestDistance`) on physical grounds, because where the rig stood is the runs' protocol.
///
/// The engine's distance and range are a lookup of its loss (`P1m - filtered RSSI`) in the model's
/// table, and its filter does not depend on the model: so one pass of the real engine over each run
/// per noise floor gives the losses every candidate model is scored on (`TrainingRun`), and each
/// held-out run is then ranged again, from its packets, by an engine configured with what was learned.
public struct ModelLearning: Sendable {
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
        public var rangeScaleNear: Double
        public var rangeScaleFar: Double
        /// What the model fixes a priori (distance bounds, the body), never learned.
        public var fixed: PathLossPrior
        /// The criterion's value on the training runs (mean log ratio to the best of the four).
        public var trainingCriterion: Double

        public var prior: PathLossPrior {
            var prior = fixed
            prior.exponentSpread = fit.exponentSpread
            prior.calibratedExponentSpread = fit.calibratedExponentSpread
            prior.shadowing = fit.shadowing
            prior.rangeScaleNear = rangeScaleNear
            prior.rangeScaleFar = rangeScaleFar
            return prior
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

    /// - Parameter base: the engine's configuration apart from the learned model (filter,
    ///   probability...); its posterior model's a-priori terms (distance bounds, body) are kept.
    ///   separateEnds: learn a scale per end of the range (not what ships).
    public init(traces: [RunTraces], base: RangingConfiguration = RangingConfiguration(), separateEnds: Bool = false) {
        training = traces.map(\.training)
        let fixed: PathLossPrior
        if case .posterior(let prior) = base.distanceModel { fixed = prior } else { fixed = .herald }
        var heldOut: [String: Learned] = [:]
        for run in training {
            heldOut[run.name] = Self.learn(training.filter { $0.name != run.name }, probability: base.rangeProbability, fixed: fixed, separateEnds: separateEnds)
        }
        self.heldOut = heldOut
        all = Self.learn(training, probability: base.rangeProbability, fixed: fixed, separateEnds: separateEnds)
    }

    public static func learn(_ runs: [TrainingRun], probability: Double, fixed: PathLossPrior = .herald, separateEnds: Bool = false) -> Learned {
        let fit = PathLossFit.learn(runs.compactMap(\.fit))
        var chosen = Learned(fit: fit, noiseFloor: noiseFloors[0], rangeScaleNear: 1, rangeScaleFar: 1, fixed: fixed, trainingCriterion: .infinity)
        var floorIndex = 0
        let table = chosen.prior.table(exponent: fit.exponent, probability: probability)
        for floor in noiseFloors.indices {
            let ratios = runs.map { run in log(medianError(run, floor: floor, table) / run.bestTarget) }
            let criterion = ratios.reduce(0, +) / Double(max(1, ratios.count))
            if criterion < chosen.trainingCriterion {
                chosen.noiseFloor = noiseFloors[floor]
                chosen.trainingCriterion = criterion
                floorIndex = floor
            }
        }
        // Each training run's coverage is taken under the model fitted without it (the exponent,
        // its spread and the shadowing from the other training runs): what an unseen phone gets.
        // Under its own fit a run's exponent is part of the spread it is judged by, and the scales
        // come out too narrow for the phone that is unlike the others.
        let placed = runs.map { run in
            let fit = PathLossFit.learn(runs.filter { $0.name != run.name }.compactMap(\.fit))
            var candidate = chosen
            candidate.fit = fit
            return truthPositions(run, floor: floorIndex, candidate.prior, exponent: fit.exponent)
        }
        let scales = RangeScales.choose(placed, probability: probability, separateEnds: separateEnds)
        chosen.rangeScaleNear = scales.near
        chosen.rangeScaleFar = scales.far
        return chosen
    }

    /// Where each tick's truth falls in the model's posterior (its probability of a distance
    /// below the truth), sorted: the range misses below when this is under its near tail, above
    /// when over one minus its far tail.
    public static func truthPositions(_ run: TrainingRun, floor: Int, _ prior: PathLossPrior, exponent: Double) -> [Double] {
        let cdf = PathLossPosteriorCDF(prior.key(exponent: exponent, probability: 0.8))
        return zip(run.lossesByFloor[floor], run.truths).map { cdf.probabilityBelow($1, x: $0) }.sorted()
    }

    static func medianError(_ run: TrainingRun, floor: Int, _ table: PathLossPosteriorTable) -> Double {
        median(zip(run.lossesByFloor[floor], run.truths).map { abs(table.estimate(x: $0).distance - $1) }) ?? .nan
    }
}
