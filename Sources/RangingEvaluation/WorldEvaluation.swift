import Foundation
import Ranging
import Simulation

/// One simulated world over many seeds: beacontop and the field's pipelines on every walk, summed.
public struct WorldEvaluation: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// The project's own simulator, museum scenario (`SimulatorWorld`).
        case simulator
        /// The independent radio model (`GalleryWorld`).
        case gallery
        /// Real HERALD samples near the true distance, each exhibit its own multipath
        /// (`RealTraceWalk`, `.ownPerExhibit`); seed `s` uses run `s mod 7`.
        case realTrace = "real-trace"
        /// The same at exactly the true distance: every exhibit the rig's one multipath (the
        /// stress row, `.sharedByEveryExhibit`).
        case realTraceShared = "real-trace-shared"

        public var title: String {
            switch self {
            case .simulator: "Simulator museum walk (Simulation.RadioSimulator)"
            case .gallery: "Independent gallery model (GalleryWorld)"
            case .realTrace: "Real-trace walk, each exhibit its own multipath (HERALD samples near the true distance)"
            case .realTraceShared: "Real-trace walk, stress: one multipath for every exhibit (HERALD samples at the true distance)"
            }
        }
    }

    /// A pipeline's walks added up.
    public struct Totals: Sendable {
        public var correct = 0
        public var ticks = 0
        public var changes = 0
        public var moves = 0
        public var errors: [Double] = []
        public var covered = 0
        public var ranged = 0
        public var widths: [Double] = []
        public var byDistance = DistanceBuckets()
        /// Each walk's share of stay ticks naming the visited exhibit.
        public var walkShares: [Double] = []
        public var cue = MovementCueCount()

        mutating func add(_ score: WalkEvaluation.Score) {
            correct += score.nearest.stays.reduce(0) { $0 + $1.correct }
            ticks += score.nearest.stays.reduce(0) { $0 + $1.ticks }
            changes += score.nearest.changes
            moves += score.nearest.moves
            errors += score.errors
            covered += score.covered
            ranged += score.ranged
            widths += score.widths
            byDistance.add(score.byDistance)
            walkShares.append(score.nearest.overallShare)
            cue.add(score.cue)
        }

        public var nearestShare: Double { ticks == 0 ? 0 : Double(correct) / Double(ticks) }
        public var changesPerMove: Double { moves == 0 ? 0 : Double(changes) / Double(moves) }
        public var medianError: Double { median(errors) ?? .nan }
        public var coverage: Double? { ranged == 0 ? nil : Double(covered) / Double(ranged) }
        public var medianWidthFactor: Double? { median(widths) }
    }

    public var kind: Kind
    public var seeds: [UInt64]
    public var beacontop = Totals()
    public var field: [FieldPipeline.Kind: Totals] = [:]
    /// beacontop's misses and changes by cause, over every walk.
    public var diagnosis = NearestDiagnosis()
    /// Real-trace only: beacontop's totals per HERALD run.
    public var byRun: [String: Totals] = [:]

    /// - Parameters:
    ///   - runs: the HERALD runs (real-trace walks only), with `learning` on them: each walk's
    ///     engine uses the model learned on the *other* runs, as the run evaluation does.
    ///   - base: beacontop's configuration (the learned model replaces its distance model for the
    ///     real-trace walks).
    public init(_ kind: Kind, seeds: [UInt64], runs: [HeraldRun] = [], learning: ModelLearning? = nil,
                base: RangingConfiguration = RangingConfiguration(), field kinds: [FieldPipeline.Kind] = FieldPipeline.Kind.allCases) {
        self.kind = kind
        self.seeds = seeds
        let banks = runs.compactMap(RealTraceWalk.SampleBank.init)
        for seed in seeds {
            var configuration = base
            let walk: WalkRecording
            var runName: String?
            switch kind {
            case .simulator: walk = SimulatorWorld.recording(seed: seed)
            case .gallery: walk = GalleryWorld.recording(seed: seed)
            case .realTrace, .realTraceShared:
                precondition(!banks.isEmpty, "the real-trace walk needs the HERALD runs")
                let held = Int(seed % UInt64(banks.count))
                walk = RealTraceWalk.recording(seed: seed, bank: banks[held], multipath: kind == .realTrace ? .ownPerExhibit : .sharedByEveryExhibit)
                runName = banks[held].name
                guard let learned = learning?.heldOut[banks[held].name] else {
                    preconditionFailure("the real-trace walk needs the model learned without \(banks[held].name)")
                }
                configuration = learned.configuration(base)
            }
            let evaluation = WalkEvaluation(walk, configuration: configuration, field: kinds)
            beacontop.add(evaluation.beacontop)
            diagnosis.add(NearestDiagnosis(walk, ticks: evaluation.beacontop.ticks))
            for (pipeline, score) in evaluation.field { field[pipeline, default: Totals()].add(score) }
            if let runName { byRun[runName, default: Totals()].add(evaluation.beacontop) }
        }
    }
}
