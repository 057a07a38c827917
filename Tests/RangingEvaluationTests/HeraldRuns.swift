import Foundation
import RangingEvaluation
import TestFixtures

/// The seven HERALD runs and the leave-one-run-out evaluation over them, computed once for every
/// suite (loading and ranging them takes seconds in a debug build).
enum HeraldRuns {
    static let directory = SharedData.directory.appendingPathComponent("herald")
    static let all = Result { try HeraldRun.loadAll(directory: directory) }
    static let evaluation = Result { RunEvaluation(runs: try all.get()) }
    static var learning: ModelLearning { get throws { try evaluation.get().learning } }
}
