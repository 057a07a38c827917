import Foundation
import Ranging

/// What every pipeline answered on one real run under `RunProtocol`, none of which depends on what
/// beacontop's model learns: the field's pipelines, and the loss beacontop's engine ranged at
/// each tick with each candidate noise floor (its filter is the same whatever the distance model).
/// Computed once per run and used both to learn (`ModelLearning`) and to score.
public struct RunTraces: Sendable {
    public var run: HeraldRun
    public var measuredPower: Double
    public var field: [FieldPipeline.Kind: RunTrace]
    /// The ticks every pipeline (beacontop included) answered.
    public var mask: [Bool]
    public var training: ModelLearning.TrainingRun

    public init?(_ run: HeraldRun, base: RangingConfiguration = RangingConfiguration()) {
        guard let power = run.measuredPowerAtOneMetre else { return nil }
        self.run = run
        measuredPower = power
        var field: [FieldPipeline.Kind: RunTrace] = [:]
        for kind in FieldPipeline.Kind.allCases {
            var pipeline = FieldPipeline(kind, measuredPower: power)
            field[kind] = RunProtocol.trace(run, pipeline: &pipeline)
        }
        self.field = field
        let byFloor = ModelLearning.noiseFloors.map { floor in
            var configuration = base
            configuration.adaptiveFilter.noiseFloor = floor
            var engine = EnginePipeline(configuration: configuration, measuredPower: power)
            return RunProtocol.trace(run, pipeline: &engine)
        }
        // Whether the engine answers (the beacon heard within staleAfter) does not depend on its filter.
        var mask = byFloor[0].answered
        for trace in field.values {
            for (index, answered) in trace.answered.enumerated() where !answered { mask[index] = false }
        }
        self.mask = mask
        let scored = mask.indices.filter { mask[$0] }
        let best = field.filter { $0.key.isTarget }.map { RunScore($0.value, mask: mask).medianError }.min() ?? .nan
        training = .init(
            name: run.name, fit: PathLossFit.runFit(run), truths: scored.map { byFloor[0].truths[$0] },
            lossesByFloor: byFloor.map { trace in scored.map { trace.estimates[$0]?.loss ?? .nan } }, bestTarget: best
        )
    }

    public static func all(_ runs: [HeraldRun], base: RangingConfiguration = RangingConfiguration()) -> [RunTraces] {
        runs.compactMap { RunTraces($0, base: base) }
    }
}

/// Every pipeline on every real run under `RunProtocol`, beacontop scored leave-one-run-out: its
/// model is learned (`ModelLearning`) on the other runs and the held-out run is ranged by a real
/// engine configured with it.
///
/// All pipelines are scored on the same ticks: those every one of them answered (beacontop shows
/// nothing for a beacon silent for `staleAfter`, the Android running average after 20 s); each
/// pipeline's own share of answered ticks is reported beside it.
public struct RunEvaluation: Sendable {
    public struct Row: Sendable {
        public var run: String
        public var measuredPower: Double
        /// What was learned on the other runs, used for this one.
        public var learned: ModelLearning.Learned
        public var fit: PathLossFit { learned.fit }
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
    public var learning: ModelLearning

    /// - Parameter base: beacontop's configuration before the learned model is put in (filter,
    ///   range probability, staleness...).
    public init(runs: [HeraldRun], base: RangingConfiguration = RangingConfiguration()) {
        let traces = RunTraces.all(runs, base: base)
        self.init(traces: traces, learning: ModelLearning(traces: traces, base: base), base: base)
    }

    public init(traces: [RunTraces], learning: ModelLearning, base: RangingConfiguration = RangingConfiguration()) {
        self.learning = learning
        rows = traces.compactMap { traces in
            learning.heldOut[traces.run.name].map { Self.evaluate(traces, learned: $0, base: base) }
        }
    }

    static func evaluate(_ traces: RunTraces, learned: ModelLearning.Learned, base: RangingConfiguration) -> Row {
        let configuration = learned.configuration(base)
        let run = traces.run, power = traces.measuredPower, mask = traces.mask
        var engine = EnginePipeline(configuration: configuration, measuredPower: power)
        let beacontop = RunProtocol.trace(run, pipeline: &engine)
        let calibratedExponent = traces.training.fit?.twoPointExponent.map(PathLossFit.clampCalibratedExponent)
        var calibrated: RunTrace?
        if let calibratedExponent {
            var pipeline = EnginePipeline(configuration: configuration, measuredPower: power, pathLossExponent: calibratedExponent)
            calibrated = RunProtocol.trace(run, pipeline: &pipeline)
        }
        return Row(
            run: run.name, measuredPower: power, learned: learned,
            field: traces.field.mapValues { RunScore($0, mask: mask) },
            beacontop: RunScore(beacontop, mask: mask),
            beacontopCalibrated: calibrated.map { RunScore($0, mask: mask) },
            calibratedExponent: calibratedExponent,
            commonTicks: mask.filter { $0 }.count, scoredTicks: mask.count
        )
    }
}
