import Testing
import TestFixtures
@testable import RangingEvaluation

/// The evaluation computes the issue's table again from the same files: the field's pipelines and
/// beacontop's former default within rounding. ESPresense comes within 0.04 m only: the issue does
/// not say how its IQR window treats its edges, and 20210110-2247-A is sensitive to that.
@Suite(.onComputationThread) struct IssueReproductionTests {
    @Test func theIssuesTableReproduces() throws {
        for run in try HeraldRuns.all.get() {
            let issue = try #require(IssueTable.rows[run.name])
            let (ours, answered) = try #require(IssueTable.reproduce(run))
            let name = run.name
            #expect(abs(ours.runningAverage - issue.runningAverage) <= 0.0051, "\(name) RA \(ours.runningAverage)")
            #expect(abs(ours.arma - issue.arma) <= 0.0051, "\(name) ARMA \(ours.arma)")
            #expect(abs(ours.roomAssistant - issue.roomAssistant) <= 0.0051, "\(name) room-assistant \(ours.roomAssistant)")
            #expect(abs(ours.beacontop - issue.beacontop) <= 0.0101, "\(name) beacontop \(ours.beacontop)")
            #expect(abs(ours.espresense - issue.espresense) <= 0.045, "\(name) ESPresense \(ours.espresense)")
            #expect(abs(ours.rangeHeld - issue.rangeHeld) <= 0.045, "\(name) range held \(ours.rangeHeld)")
            #expect(answered > 0.7, "\(name): the former default answered \(answered) of the ticks")
        }
    }

    /// The issue's ARMA column is the textbook EMA; the library's own filter stores its value
    /// through `intValue()`, which rounds toward zero and reads distances short: on every run the
    /// faithful one is no better.
    @Test func theFaithfulARMAIsTheWorseOne() throws {
        for run in try HeraldRuns.all.get() {
            let power = try #require(run.measuredPowerAtOneMetre)
            var faithful = FieldPipeline(.androidARMA, measuredPower: power)
            var textbook = FieldPipeline(.androidARMAUntruncated, measuredPower: power)
            let a = RunScore(RunProtocol.trace(run, pipeline: &faithful)).medianError
            let b = RunScore(RunProtocol.trace(run, pipeline: &textbook)).medianError
            #expect(a >= b - 1e-9, "\(run.name): intValue \(a), EMA \(b)")
        }
    }
}
