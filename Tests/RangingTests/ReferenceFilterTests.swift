import Testing
@testable import Ranging

/// The reference filters reproduce their originals' arithmetic, checked against values worked by hand.
@Suite struct ReferenceFilterTests {
    @Test func runningAverageTrimsLikeTheAndroidLibrary() {
        var filter = RunningAverageRSSIFilter()
        // 12 samples: size/10 + 1 = 2 dropped at each end -> indices 2...9 of the sorted list.
        let samples: [Double] = [-50, -90, -60, -61, -62, -63, -64, -65, -66, -67, -30, -100]
        for (index, rssi) in samples.enumerated() { filter.add(rssi, at: Double(index)) }
        let expected = [-67.0, -66, -65, -64, -63, -62, -61, -60].reduce(0, +) / 8
        #expect(filter.estimate(at: 11) == expected)
        // Samples 20 s old or older expire: at t = 21, samples at t = 0 and 1 are gone.
        let remaining = Array(samples.dropFirst(2)).sorted()
        let trimmed = remaining[2...7]
        #expect(filter.estimate(at: 21) == trimmed.reduce(0, +) / 6)
        #expect(filter.estimate(at: 100) == nil)
    }

    @Test func runningAverageKeepsTwoSamplesWhole() {
        var filter = RunningAverageRSSIFilter()
        filter.add(-60, at: 0)
        filter.add(-70, at: 1)
        #expect(filter.estimate(at: 1) == -65)
    }

    @Test func armaTruncatesTowardZeroLikeIntValue() {
        var filter = ARMARSSIFilter()
        filter.add(-60, at: 0)
        #expect(filter.estimate(at: 0) == -60)
        filter.add(-65, at: 1) // -60.5 -> -60
        #expect(filter.estimate(at: 1) == -60)
        filter.add(-55, at: 2) // -59.5 -> -59
        #expect(filter.estimate(at: 2) == -59)
        filter.add(-79, at: 3) // -61.0 -> -61
        #expect(filter.estimate(at: 3) == -61)
        var textbook = ARMARSSIFilter(truncatesToInteger: false)
        textbook.add(-60, at: 0)
        textbook.add(-65, at: 1)
        #expect(textbook.estimate(at: 1) == -60.5)
    }

    @Test func bultenKalmanMatchesKalmanjs() throws {
        var filter = BultenKalmanRSSIFilter()
        filter.add(-60, at: 0)
        #expect(filter.estimate(at: 0) == -60)
        #expect(filter.estimateVariance == 4)
        filter.add(-70, at: 1)
        // predicted cov 4.008, gain 4.008 / 8.008
        let gain = 4.008 / 8.008
        let value = filter.estimate(at: 1)
        let estimate = try #require(value)
        #expect(abs(estimate - (-60 - 10 * gain)) < 1e-12)
        #expect(abs(try #require(filter.estimateVariance) - (4.008 - gain * 4.008)) < 1e-12)
    }

    @Test func interquartileMeanDropsTheOuterQuarters() {
        var filter = InterquartileMeanRSSIFilter()
        let samples: [Double] = [-100, -70, -60, -62, -64, -66, -40, -99]
        for (index, rssi) in samples.enumerated() { filter.add(rssi, at: Double(index)) }
        // sorted: -100 -99 -70 -66 -64 -62 -60 -40; drop 2 each end -> -70 -66 -64 -62
        let middle: Double = -262.0 / 4
        #expect(filter.estimate(at: 7) == middle)
        #expect(filter.estimate(at: 30) == nil, "15 s window")
    }
}
