import Testing
@testable import Ranging

/// The segment median the default filter can report instead of its mean
/// (`AdaptiveKalmanRSSIFilter.Parameters.level`): a grouped median of whole-dBm packets, started
/// afresh from the packets since a change began.
@Suite struct SegmentMedianTests {
    /// Grouped median by hand: packets -60, -60, -61, -62 (four): half is 2 packets; below the
    /// -61 bin lie 1 (-62), the -61 bin holds 1, the -60 bin 2: the median falls in -60's bin
    /// [-60.5, -59.5] at (2 - 2) / 2 of it: -60.5. With one more -60: half 2.5, -60.5 + 0.5 / 3.
    @Test func groupedMedianByHand() throws {
        var median = SegmentMedian()
        #expect(median.median == nil)
        for rssi in [-60.0, -60, -61, -62] { median.add(rssi) }
        #expect(try #require(median.median) == -60.5)
        median.add(-60)
        #expect(abs(try #require(median.median) - (-60.5 + 0.5 / 3)) < 1e-12)
    }

    /// A restart keeps only the last packets (those since the change began).
    @Test func restartKeepsTheLastPackets() throws {
        var median = SegmentMedian()
        for _ in 0..<50 { median.add(-50) }
        for rssi in [-70.0, -71, -72] { median.add(rssi) }
        median.restart(keepingLast: 3)
        // -72, -71, -70: half 1.5; -72's bin holds 1, -71's 1: median -71.5 + 0.5 = -71.
        #expect(try #require(median.median) == -71)
        median.restart(keepingLast: 100)
        #expect(try #require(median.median) > -60, "at most the 16 recent packets are kept, most of them -50")
    }

    /// Out-of-range readings are clamped to the counters; a reading that is not a number is
    /// ignored (it would trap converting to a counter).
    @Test func outOfRangeReadingsAreClampedAndNaNIgnored() throws {
        var median = SegmentMedian()
        median.add(.nan)
        #expect(median.median == nil)
        median.add(20)
        #expect(try #require(median.median) == 0)
        median.add(-300)
        median.add(-300)
        #expect(try #require(median.median) == -127.5 + 1.5 / 2)
    }

    /// The filter reporting the segment median follows a move as fast as the mean does and, while
    /// still, reports the segment's median: a 12 dB fade on a third of the packets pulls the mean
    /// several dB down but the median about one.
    @Test func theFilterReportsTheSegmentMedian() throws {
        var parameters = AdaptiveKalmanRSSIFilter.Parameters()
        parameters.level = .segmentMedian
        var median = AdaptiveKalmanRSSIFilter(parameters: parameters)
        var mean = AdaptiveKalmanRSSIFilter()
        for step in 0..<600 {
            let rssi = step % 3 == 0 ? -72.0 : -60
            median.add(rssi, at: Double(step) / 10)
            mean.add(rssi, at: Double(step) / 10)
        }
        let medianLevel = median.estimate(at: 60), meanLevel = mean.estimate(at: 60)
        let m = try #require(medianLevel), k = try #require(meanLevel)
        #expect(m > -61.5 && k < m - 2, "median \(m), mean \(k)")
    }
}
