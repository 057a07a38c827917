import Foundation
import Ranging
import Testing
import TestFixtures
@testable import RangingEvaluation

/// beacontop on the seven real runs, leave-one-run-out: everything its model learns (exponent,
/// spreads, the filter's noise floor, the range's scale) learned on the other six; the prior on
/// distance fixed (flat in log distance over 0.1-30 m), never learned (docs/ranging.md, "Real
/// runs"). What the issue asks and what is met:
/// - the range holds the truth on 75-85% of ticks on every run: not met. Its scale is learned so
///   that the training runs it holds least and most often (each under the model fitted without
///   it) are equally far either side of 80%; on the held-out runs it holds the truth on 62-91%,
///   83% on average, the flat phone (20210112-2303-B) 62%, and no scale chosen in hindsight
///   does better than 9 points off on the worst run (`RangeScalesTests`). Asserted: every run at
///   least 55% and at most 95%, 75-85% on average;
/// - median error at most the best of the four field pipelines on every run: met on none; with no
///   prior pulling estimates toward where the rig stood, a steep phone's reading at 3 m is taken
///   for farther (x1.46 of the best on average, x2.27 at worst). Asserted as measured: within x2.4
///   of the best on every run, under x1.55 on average;
/// - with a second calibration point, better than every pipeline: not met (docs/ranging.md).
@Suite(.onComputationThread) struct RunEvaluationTests {
    @Test func theRangeHoldsTheTruthAsOftenAsItSaysOnAverage() throws {
        let evaluation = try HeraldRuns.evaluation.get()
        #expect(evaluation.rows.count == 7)
        var coverages: [Double] = []
        for row in evaluation.rows {
            let coverage = try #require(row.beacontop.coverage)
            coverages.append(coverage)
            #expect(coverage >= 0.55 && coverage <= 0.95, "\(row.run): range held the truth on \(coverage)")
            // A range of 80% for a phone of unknown exponent can only be this honest by being
            // wide: about x/÷ 2.2 to 3.
            let width = try #require(row.beacontop.medianWidthFactor)
            #expect(width > 2.1 && width < 3.1, "\(row.run): width \(width)")
        }
        let mean = coverages.reduce(0, +) / Double(coverages.count)
        #expect(mean >= 0.75 && mean <= 0.85, "mean coverage \(mean)")
    }

    @Test func distanceAgainstTheBestOfTheField() throws {
        let evaluation = try HeraldRuns.evaluation.get()
        var ratios: [Double] = []
        for row in evaluation.rows {
            let best = try #require(row.bestTarget)
            let ours = row.beacontop.medianError
            ratios.append(ours / best.error)
            #expect(ours <= 2.4 * best.error, "\(row.run): \(ours) m against \(best.kind.rawValue)'s \(best.error) m")
            #expect(row.beacontop.answeredShare > 0.7)
        }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        #expect(mean < 1.55, "mean ratio to the best of the field \(mean): \(ratios)")
    }

    /// What is learned on all seven runs is what ships: the fit, the filter's noise floor and the
    /// range's scale; the prior on distance is the fixed 0.1-30 m.
    @Test func theShippedDefaultsAreWhatIsLearnedOnAllRuns() throws {
        let all = try HeraldRuns.learning.all
        let configuration = RangingConfiguration()
        guard case .posterior(let prior) = configuration.distanceModel else {
            Issue.record("the default distance model is not the posterior")
            return
        }
        #expect(abs(configuration.pathLossExponent - all.fit.exponent) < 0.005, "exponent \(all.fit.exponent)")
        #expect(abs(prior.exponentSpread - all.fit.exponentSpread) < 0.005, "spread \(all.fit.exponentSpread)")
        #expect(abs(prior.shadowing - all.fit.shadowing) < 0.005, "shadowing \(all.fit.shadowing)")
        #expect(abs(prior.calibratedExponentSpread - all.fit.calibratedExponentSpread) < 0.005, "second point \(all.fit.calibratedExponentSpread)")
        #expect(prior.nearestDistance == 0.1 && prior.farthestDistance == 30)
        #expect(abs(prior.rangeScaleNear - all.rangeScaleNear) < 0.005, "range scale \(all.rangeScaleNear)")
        #expect(abs(prior.rangeScaleFar - all.rangeScaleFar) < 0.005, "range scale \(all.rangeScaleFar)")
        #expect(all.rangeScaleNear == all.rangeScaleFar)
        #expect(configuration.adaptiveFilter.noiseFloor == all.noiseFloor, "noise floor \(all.noiseFloor)")
    }

    /// Leave-one-run-out really leaves the run out: what a run is scored with is what is learned
    /// on the other six (the same numbers from the training runs alone), and differs from what is
    /// learned on all seven. (Three runs: learning again takes a while in a debug build.)
    @Test func eachRunIsScoredWithWhatWasLearnedWithoutIt() throws {
        let learning = try HeraldRuns.learning
        let evaluation = try HeraldRuns.evaluation.get()
        for row in evaluation.rows.prefix(3) {
            let others = learning.training.filter { $0.name != row.run }
            #expect(others.count == 6)
            let again = ModelLearning.learn(others, probability: 0.8)
            #expect(abs(row.fit.exponent - again.fit.exponent) < 1e-9 && abs(row.fit.shadowing - again.fit.shadowing) < 1e-9)
            #expect(row.learned.noiseFloor == again.noiseFloor)
            #expect(row.learned.rangeScaleNear == again.rangeScaleNear && row.learned.rangeScaleFar == again.rangeScaleFar)
            #expect(abs(row.fit.exponent - learning.all.fit.exponent) > 0.01, "\(row.run)")
        }
    }

    /// The learning's two stated properties, on its own training runs: no noise floor scores better
    /// by the criterion than the one chosen, and the training runs the range holds least and most
    /// often, each under the model fitted on the other training runs, are equally far either side
    /// of 80% (within what a scale step, and the learning's distribution function against the
    /// table the engine reads, move a run's share).
    @Test func theNoiseFloorAndTheRangeScaleDoWhatTheySayOnTheTrainingRuns() throws {
        let learning = try HeraldRuns.learning
        let training = learning.training.filter { $0.name != "20210112-2303-B" }
        let learned = try #require(learning.heldOut["20210112-2303-B"])
        let floors = ModelLearning.noiseFloors
        let table = learned.prior.table(exponent: learned.fit.exponent, probability: 0.8)
        func criterion(floor index: Int) -> Double {
            let logs = training.map { run in
                let errors = zip(run.lossesByFloor[index], run.truths).map { abs(table.estimate(x: $0).distance - $1) }.sorted()
                let median = errors.count % 2 == 1 ? errors[errors.count / 2] : (errors[errors.count / 2 - 1] + errors[errors.count / 2]) / 2
                return log(median / run.bestTarget)
            }
            return logs.reduce(0, +) / Double(logs.count)
        }
        let floorIndex = try #require(floors.firstIndex(of: learned.noiseFloor))
        let chosen = criterion(floor: floorIndex)
        #expect(abs(chosen - learned.trainingCriterion) < 1e-9)
        for floor in floors.indices { #expect(criterion(floor: floor) >= chosen, "\(floors[floor]) dB") }
        let shares = training.map { run in
            var inner = learned
            inner.fit = PathLossFit.learn(training.filter { $0.name != run.name }.compactMap(\.fit))
            let table = inner.prior.table(exponent: inner.fit.exponent, probability: 0.8)
            return Double(zip(run.lossesByFloor[floorIndex], run.truths).filter { table.estimate(x: $0).range.contains($1) }.count) / Double(run.truths.count)
        }
        let (low, high) = (try #require(shares.min()), try #require(shares.max()))
        #expect(low < 0.8 && high > 0.8 && abs((0.8 - low) - (high - 0.8)) < 0.015, "training coverage \(low)-\(high)")
    }

    /// The learning scores candidate models on the engine's losses: that is exact only if the real
    /// engine's distance and range are the model's table at its loss. Checked on a real run.
    @Test func theEnginesDistanceIsItsTableAtItsLoss() throws {
        let run = try #require(try HeraldRuns.all.get().first)
        let learned = try HeraldRuns.learning.all
        let power = try #require(run.measuredPowerAtOneMetre)
        var engine = EnginePipeline(configuration: learned.configuration(), measuredPower: power)
        let trace = RunProtocol.trace(run, pipeline: &engine)
        let table = learned.prior.table(exponent: learned.fit.exponent, probability: 0.8)
        var checked = 0
        for estimate in trace.estimates.compactMap({ $0 }) {
            let loss = try #require(estimate.loss)
            let (distance, range) = table.estimate(x: loss)
            #expect(distance == estimate.distance && range == estimate.range)
            checked += 1
        }
        #expect(checked > 1000)
    }
}

extension RunEvaluationTests {
    /// The hindsight bound is a minimum over exponents on the run itself: it is at or under the
    /// line through the run's own least-squares exponent (what a technician fitting the whole run
    /// would use), and under the raw n = 2 line, on every run.
    @Test func theHindsightBoundIsAMinimum() throws {
        let floor = try HeraldRuns.learning.all.noiseFloor
        for run in try HeraldRuns.learning.training {
            let bound = HindsightBound.best(run, floor: floor)
            let fitted = try #require(run.fit?.exponent)
            #expect(bound.error <= HindsightBound.medianError(run, floor: floor, exponent: fitted) + 0.005, "\(run.name)")
            #expect(bound.error <= HindsightBound.medianError(run, floor: floor, exponent: 2), "\(run.name)")
            #expect(abs(HindsightBound.medianError(run, floor: floor, exponent: bound.exponent) - bound.error) < 1e-12)
        }
    }
}

extension RunEvaluationTests {
    /// The exponent's spread is the next phone's: the runs' sample deviation times sqrt(1 + 1/k)
    /// times the t quantile over the normal's at 0.9 (Student's t with k - 1 degrees of freedom;
    /// tabulated t quantiles 1.475884 for 5, 1.439756 for 6), and the learned spread is that.
    @Test func theExponentSpreadIsTheNextPhones() throws {
        let z = 1.281_551_6
        for (k, t) in [(6, 1.475_884), (7, 1.439_756)] {
            let factor = PathLossFit.predictiveFactor(runs: k)
            #expect(abs(factor * z / (1 + 1 / Double(k)).squareRoot() - t) < 0.003, "\(k) runs: \(factor)")
        }
        let fits = try HeraldRuns.learning.training.compactMap(\.fit)
        let exponents = fits.map(\.exponent)
        let mean = exponents.reduce(0, +) / Double(exponents.count)
        let sample = (exponents.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(exponents.count - 1)).squareRoot()
        #expect(abs(PathLossFit.learn(fits).exponentSpread - sample * PathLossFit.predictiveFactor(runs: 7)) < 1e-12)
        #expect(PathLossFit.learn(fits).exponentSpread > 1.15 * sample)
    }
}
