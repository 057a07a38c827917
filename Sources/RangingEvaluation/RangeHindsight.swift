import Foundation

/// How far the range's target (every run within 75-85%) is from what a range of this kind can
/// reach: each scored run's truths placed in the posterior of the model it was scored with (learned
/// without it), and the scales chosen by the learning's own criterion on the **scored** runs
/// themselves, one for both ends and one per end. Knowledge no learning has: a bound, not a figure
/// of beacontop. If even these leave a run outside the target, no phone-independent scale can
/// meet it on these phones.
public struct RangeHindsight: Sendable {
    public var runs: [String]
    /// Per run, sorted (`ModelLearning.truthPositions`).
    public var positions: [[Double]]
    public var probability: Double

    public init(_ evaluation: RunEvaluation, probability: Double = 0.8) {
        var runs: [String] = []
        var positions: [[Double]] = []
        for row in evaluation.rows {
            guard let run = evaluation.learning.training.first(where: { $0.name == row.run }),
                  let floor = ModelLearning.noiseFloors.firstIndex(of: row.learned.noiseFloor) else { continue }
            var model = row.learned.prior
            (model.rangeScaleNear, model.rangeScaleFar) = (1, 1)
            runs.append(row.run)
            positions.append(ModelLearning.truthPositions(run, floor: floor, model, exponent: row.learned.fit.exponent))
        }
        self.runs = runs
        self.positions = positions
        self.probability = probability
    }

    /// The scales chosen on the scored runs, and each run's coverage with them.
    public func best(separateEnds: Bool) -> (near: Double, far: Double, coverages: [Double]) {
        let scales = RangeScales.choose(positions, probability: probability, separateEnds: separateEnds)
        return (scales.near, scales.far, positions.map { RangeScales.coverage($0, near: scales.near, far: scales.far, probability: probability) })
    }
}
