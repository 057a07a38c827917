import Foundation
import Testing
import TestFixtures
@testable import RangingEvaluation

/// The range's scales chosen on training runs (`RangeScales`), on truth positions whose answer is
/// known, and the bound in hindsight on the real runs (`RangeHindsight`).
@Suite(.onComputationThread) struct RangeScalesTests {
    /// Evenly spread positions: the model is right, and its own interval (scale 1) holds 80%.
    static let calibrated = (0..<1000).map { (Double($0) + 0.5) / 1000 }

    @Test func aModelThatIsRightKeepsItsOwnInterval() {
        let one = RangeScales.choose([Self.calibrated], probability: 0.8)
        #expect(abs(one.near - 1) < 0.02 && one.near == one.far, "\(one)")
        #expect(abs(RangeScales.coverage(Self.calibrated, near: one.near, far: one.far, probability: 0.8) - 0.8) < 0.01)
    }

    /// Two runs, one whose truths sit in the middle of the posterior (an interval too wide for it:
    /// all within 0.05-0.95) and one with a sixth of them beyond both ends (too narrow): one scale
    /// puts them equally far either side of 80% (about 91% and 69%), none nearer for both.
    @Test func oneScaleSplitsTheWorstRunsEvenly() {
        let narrow = Self.calibrated.map { 0.5 + ($0 - 0.5) * 0.9 }
        let tails = (0..<100).map { Double($0) / 5000 }
        let wide = (Self.calibrated + tails + tails.map { 1 - $0 }).sorted()
        let one = RangeScales.choose([narrow, wide], probability: 0.8)
        let (a, b) = (RangeScales.coverage(narrow, near: one.near, far: one.far, probability: 0.8),
                      RangeScales.coverage(wide, near: one.near, far: one.far, probability: 0.8))
        #expect(a > 0.8 && b < 0.8 && abs((a - 0.8) - (0.8 - b)) < 0.02, "\(a) \(b)")
        #expect(abs(a - 0.914) < 0.02, "\(a)")
    }

    /// Truths piled toward the far end: with a scale per end, the far end widens and the near end
    /// narrows, and the run is held 80%; with one scale both ends move together.
    @Test func separateEndsFollowASkew() {
        let skewed = Self.calibrated.map { $0.squareRoot() }
        let two = RangeScales.choose([skewed], probability: 0.8, separateEnds: true)
        #expect(two.far > 1 && two.near < two.far, "\(two)")
        #expect(abs(RangeScales.coverage(skewed, near: two.near, far: two.far, probability: 0.8) - 0.8) < 0.01)
        let one = RangeScales.choose([skewed], probability: 0.8)
        #expect(one.near == one.far)
    }

    /// Even with the scales chosen on the scored runs themselves, one for both ends or one per
    /// end, some real run stays outside 75-85%: no phone-independent scale of this model meets the
    /// issue's range target on these seven phones (docs/ranging.md).
    @Test func noScaleChosenInHindsightPutsEveryRunInTheTarget() throws {
        let hindsight = RangeHindsight(try HeraldRuns.evaluation.get())
        #expect(hindsight.runs.count == 7)
        for separateEnds in [false, true] {
            let best = hindsight.best(separateEnds: separateEnds)
            let worst = best.coverages.map { abs($0 - 0.8) }.max() ?? 0
            #expect(worst > 0.05, "separate ends \(separateEnds): \(best.coverages)")
        }
    }
}
