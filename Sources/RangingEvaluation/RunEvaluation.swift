import Foundation
import Ranging

/// Every pipeline on every real run under `RunProtocol`, beacontop scored leave-one-run-out: its
/// model is learned (`PathLossFit`) on the other runs and scored on the held-out one.
///
/// All pipelines are scored on the same ticks: those every one of them answered (beacontop shows
/// nothing for a beacon silent for `staleAfter`, the Android running average after 20 s); each
/// pipeline's own share of answered ticks is reported beside it.
public struct RunEvaluation: Sendable {
    public struct Row: Sendable {
        public var run: String
        public var measuredPower: Double
        /// The fit learned on the other runs, used for this one.
        public var fit: PathLossFit
        public var field: [FieldPipeline.Kind: RunScore]
        /// Defaults and the technician's 1 m calibration only.
        public var beacontop: RunScore
        /// With a second calibration point (catalog `pathLossExponent` from medians at 1 m and
        /// `PathLossFit.secondCalibrationDistance`), when the run has one.
        public var beacontopCalibrated: RunScore?
        /// The second point's exponent, as the catalog got it.
        public var calibratedExponent: Double?
        /// Ticks every pipeline answered (the ones scored), of all scored ticks.
        public var commonTicks: Int
        public var scoredTicks: Int

        /// The lowest median error of the four pipelines (and their variants) on this run.
        public var bestTarget: (kind: FieldPipeline.Kind, error: Double)? {
            field.filter { $0.key.isTarget }.map { ($0.key, $0.value.medianError) }.min { $0.1 < $1.1 }
        }
    }

    public var rows: [Row]

    /// - Parameter base: beacontop's configuration before the learned model is put in (filter,
    ///   prior's typical distance, range probability, staleness...).
    public init(runs: [HeraldRun], base: RangingConfiguration = RangingConfiguration()) {
        let fits = runs.map { PathLossFit.runFit($0) }
        rows = runs.indices.compactMap { held in
            let run = runs[held]
            guard let power = run.measuredPowerAtOneMetre else { return nil }
            let others = fits.indices.filter { $0 != held }.compactMap { fits[$0] }
            let fit = PathLossFit.learn(others)
            return Self.evaluate(run, power: power, fit: fit, base: base, ownFit: fits[held])
        }
    }

    static func evaluate(_ run: HeraldRun, power: Double, fit: PathLossFit, base: RangingConfiguration, ownFit: PathLossFit.RunFit?) -> Row {
        let configuration = fit.configuration(base)
        var traces: [FieldPipeline.Kind: RunTrace] = [:]
        for kind in FieldPipeline.Kind.allCases {
            var pipeline = FieldPipeline(kind, measuredPower: power)
            traces[kind] = RunProtocol.trace(run, pipeline: &pipeline)
        }
        var engine = EnginePipeline(configuration: configuration, measuredPower: power)
        let beacontop = RunProtocol.trace(run, pipeline: &engine)
        let calibratedExponent = ownFit?.twoPointExponent.map(PathLossFit.clampCalibratedExponent)
        var calibrated: RunTrace?
        if let calibratedExponent {
            var pipeline = EnginePipeline(configuration: configuration, measuredPower: power, pathLossExponent: calibratedExponent)
            calibrated = RunProtocol.trace(run, pipeline: &pipeline)
        }
        var mask = beacontop.answered
        for trace in traces.values + [calibrated].compactMap({ $0 }) {
            for (index, answered) in trace.answered.enumerated() where !answered { mask[index] = false }
        }
        return Row(
            run: run.name, measuredPower: power, fit: fit,
            field: traces.mapValues { RunScore($0, mask: mask) },
            beacontop: RunScore(beacontop, mask: mask),
            beacontopCalibrated: calibrated.map { RunScore($0, mask: mask) },
            calibratedExponent: calibratedExponent,
            commonTicks: mask.filter { $0 }.count, scoredTicks: mask.count
        )
    }
}
