/// The Android Beacon Library's `RunningAverageRssiFilter`, reproduced faithfully: keep the samples
/// of the last 20 s (a sample expires when it is 20 s old or older), sort them, drop
/// `size / 10 + 1` from each end when there are more than two, and average the rest.
///
/// Very steady and very slow: after a move it takes about half the window to follow. Memory is
/// bounded by `capacity` samples (1024: 51 adverts/s over 20 s); beyond that the oldest go first.
public struct RunningAverageRSSIFilter: RSSIFilter {
    public let window: Double
    private var samples: SampleWindow
    private var lastVariance: Double?

    public init(window: Double = 20, capacity: Int = 1024) {
        self.window = window
        samples = SampleWindow(capacity: capacity)
    }

    public var estimateVariance: Double? { lastVariance }

    public mutating func add(_ rssi: Double, at time: Double) {
        samples.append(rssi, at: time)
    }

    public mutating func estimate(at time: Double) -> Double? {
        samples.dropSamples(notAfter: time - window)
        let sorted = samples.orderedValues.sorted()
        let size = sorted.count
        guard size > 0 else { lastVariance = nil; return nil }
        var start = 0
        var end = size - 1
        if size > 2 {
            start = size / 10 + 1
            end = size - size / 10 - 2
        }
        let kept = sorted[start...end]
        let result = TrimmedMean(kept)
        lastVariance = result.varianceOfMean
        return result.mean
    }

    public mutating func reset() {
        samples.removeAll()
        lastVariance = nil
    }
}
