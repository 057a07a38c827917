import Foundation
import Testing
@testable import Ranging

/// The default distance model (`PathLossPrior`, `PathLossPosteriorTable`): its range says what
/// probability it holds the truth with, and means it, on data drawn from the model it assumes.
@Suite struct PathLossPosteriorTests {
    /// The shipped prior with the model's own interval (no learned scale): the data below are
    /// drawn from the model itself.
    static let prior: PathLossPrior = {
        var prior = PathLossPrior.herald
        prior.rangeScaleNear = 1
        prior.rangeScaleFar = 1
        return prior
    }()
    static let exponent = RangingConfiguration().pathLossExponent

    /// One reading as the model says the world is: a distance flat in log distance, a phone's
    /// exponent, the body on `bodyShare` of the draws and shadowing; returns x = P1m - RSSI (dB)
    /// and the true distance.
    static func drawFromModel(_ noise: inout SeededNoise) -> (x: Double, truth: Double) {
        let (near, far) = (log10(prior.nearestDistance), log10(prior.farthestDistance))
        let l = near + (far - near) * noise.uniform()
        let n = exponent + noise.gaussian(prior.exponentSpread)
        let body = noise.uniform() < prior.bodyShare ? prior.bodyLoss * noise.uniform() : 0
        return (10 * n * l + noise.gaussian(prior.shadowing) + body, pow(10, l))
    }

    /// Draw phones, distances and readings as the model says the world is; the 80% range must
    /// hold the truth on 80% of them, the 50% range on half. (A range that is too narrow or too
    /// wide fails: with 20000 draws the share is known to within about 0.6%.)
    @Test(arguments: [0.5, 0.8, 0.95])
    func theRangeHoldsTheTruthWithItsStatedProbability(probability: Double) {
        let table = Self.prior.table(exponent: Self.exponent, probability: probability)
        var noise = SeededNoise(seed: 42)
        var held = 0
        let draws = 20_000
        for _ in 0..<draws {
            let (x, truth) = Self.drawFromModel(&noise)
            if table.estimate(x: x).range.contains(truth) { held += 1 }
        }
        let share = Double(held) / Double(draws)
        #expect(abs(share - probability) < 0.02, "stated \(probability), held \(share)")
    }

    @Test func distanceGrowsWithLossAndTheRangeHoldsTheEstimate() {
        let table = Self.prior.table(exponent: Self.exponent, probability: 0.8)
        var previous = 0.0
        for x in stride(from: -20.0, through: 60, by: 0.5) {
            let (distance, range) = table.estimate(x: x)
            #expect(distance > previous, "x \(x)")
            #expect(range.contains(distance))
            previous = distance
        }
        // The prior prefers no distance (flat in log distance), and the model takes some of a
        // reading's loss for the body's: at the calibration's own level the estimate is somewhat
        // nearer than 1 m, and without the body term about 1 m.
        let atOneMetre = table.estimate(x: 0).distance
        #expect(atOneMetre > 0.6 && atOneMetre < 0.95, "\(atOneMetre)")
        var clear = Self.prior
        clear.bodyLoss = 0
        let withoutBody = clear.table(exponent: Self.exponent, probability: 0.8).estimate(x: 0).distance
        #expect(withoutBody > 0.95 && withoutBody < 1.1, "\(withoutBody)")
        // Nothing is placed outside the fixed 0.1-30 m however loud or faint (to within the
        // table's last 0.01-decade cell).
        #expect(table.estimate(x: -40).range.lowerBound >= 0.1 / 1.03 && table.estimate(x: 90).range.upperBound <= 30 * 1.03)
    }

    /// A reading at the calibration's own level is what a phone whose RSSI barely changes with
    /// distance gives anywhere nearby: the model allows such phones, so the range says so by being
    /// wide (HERALD's 20210112-2303-B reads the same at 1 m and 3 m).
    @Test func aReadingAtTheCalibrationLevelGivesAWideRange() {
        let range = Self.prior.table(exponent: Self.exponent, probability: 0.8).estimate(x: 0).range
        #expect(range.lowerBound < 0.5 && range.upperBound > 1.5 && range.upperBound / range.lowerBound > 5, "\(range)")
    }

    /// A catalog exponent is a measurement with an error of its own: it moves the model's exponent
    /// by inverse-variance weights and narrows its spread; it does not replace it.
    @Test func aCatalogExponentIsWeighedAgainstTheDefault() {
        let table = Self.prior.table(exponent: 1.5, catalogExponent: 3.5, probability: 0.8)
        let a = 1 / (Self.prior.exponentSpread * Self.prior.exponentSpread)
        let b = 1 / (Self.prior.calibratedExponentSpread * Self.prior.calibratedExponentSpread)
        #expect(abs(table.key.exponent - (1.5 * a + 3.5 * b) / (a + b)) < 1e-12)
        #expect(abs(table.key.exponentSpread - (1 / (a + b)).squareRoot()) < 1e-12)
        #expect(table.key.exponent > 1.5 && table.key.exponent < 3.5)
        // The same key gives the same shared table.
        #expect(Self.prior.table(exponent: 1.5, catalogExponent: 3.5, probability: 0.8) === table)
    }

    /// A learned range scale widens (above 1) or narrows the reported interval: the 80% range is the
    /// model's interval of probability 2 Phi(k z_0.8) - 1, and k = 1 is the model's own.
    @Test func theRangeScaleWidensTheModelsInterval() {
        var wide = Self.prior
        (wide.rangeScaleNear, wide.rangeScaleFar) = (1.3, 1.3)
        let scaled = wide.table(exponent: Self.exponent, probability: 0.8)
        let model = erf(1.3 * NormalQuantile.twoSided(0.8) / 2.0.squareRoot())
        #expect(abs(scaled.key.nearTail - (1 - model) / 2) < 1e-12 && abs(scaled.key.farTail - (1 - model) / 2) < 1e-12 && model > 0.9)
        let own = Self.prior.table(exponent: Self.exponent, probability: 0.8)
        #expect(abs(own.key.nearTail - 0.1) < 1e-12 && abs(own.key.farTail - 0.1) < 1e-12)
        let (a, b) = (scaled.estimate(x: 10).range, own.estimate(x: 10).range)
        #expect(a.lowerBound < b.lowerBound && a.upperBound > b.upperBound, "\(a) against \(b)")
        // The distance itself (the posterior median) does not depend on the range.
        #expect(abs(scaled.estimate(x: 10).distance - own.estimate(x: 10).distance) < 1e-9)
    }

    /// Each end has its own scale: widening the near end moves the near end only.
    @Test func eachEndOfTheRangeHasItsOwnScale() {
        var nearer = Self.prior
        nearer.rangeScaleNear = 1.5
        let own = Self.prior.table(exponent: Self.exponent, probability: 0.8)
        let wide = nearer.table(exponent: Self.exponent, probability: 0.8)
        for x in stride(from: -5.0, through: 30, by: 5) {
            let (a, b) = (wide.estimate(x: x).range, own.estimate(x: x).range)
            #expect(a.lowerBound < b.lowerBound && a.upperBound == b.upperBound, "x \(x): \(a) against \(b)")
        }
    }

    /// The posterior's distribution function places a truth where the table's range does: at the
    /// range's near end it is the near tail, at the far end one minus the far tail; and on data
    /// drawn from the model the truth's place is uniform (a tenth below 0.1, a tenth above 0.9).
    @Test func theDistributionFunctionAgreesWithTheTableAndIsUniformOnTheModel() {
        let key = Self.prior.key(exponent: Self.exponent, probability: 0.8)
        let cdf = PathLossPosteriorCDF(key)
        let table = PathLossPosteriorTable.shared(key)
        for x in stride(from: -10.0, through: 40, by: 2.5) {
            let range = table.estimate(x: x).range
            #expect(abs(cdf.probabilityBelow(range.lowerBound, x: x) - 0.1) < 0.002, "x \(x)")
            #expect(abs(cdf.probabilityBelow(range.upperBound, x: x) - 0.9) < 0.002, "x \(x)")
            #expect(abs(cdf.probabilityBelow(table.estimate(x: x).distance, x: x) - 0.5) < 0.002, "x \(x)")
        }
        var noise = SeededNoise(seed: 7)
        var (low, high) = (0, 0)
        let draws = 20_000
        for _ in 0..<draws {
            let (x, truth) = Self.drawFromModel(&noise)
            let u = cdf.probabilityBelow(truth, x: x)
            if u < 0.1 { low += 1 } else if u > 0.9 { high += 1 }
        }
        #expect(abs(Double(low) / Double(draws) - 0.1) < 0.012 && abs(Double(high) / Double(draws) - 0.1) < 0.012, "\(low) \(high)")
    }

    @Test func normalQuantiles() {
        #expect(abs(NormalQuantile.twoSided(0.8) - 1.281_551_6) < 1e-6)
        #expect(abs(NormalQuantile.twoSided(0.682_689_492) - 1) < 1e-6)
        #expect(abs(NormalQuantile.twoSided(0.95) - 1.959_964) < 1e-6)
    }
}
