/// ESPresense-style interquartile mean: the samples of the last 15 s, sorted, with the lowest and
/// highest quarter (`count / 4` each) dropped and the middle half averaged. Fewer than four samples
/// are averaged as they are.
///
/// Robust to deep fades (they fall in the dropped quarter) and steadier than a plain mean, but a
/// fixed window: it follows a move in about half its length. Bounded by `capacity` samples.
public struct InterquartileMeanRSSIFilter: RSSIFilter {
    public let window: Double
    private var samples: SampleWindow
    private var lastVariance: Double?

    public init(window: Double = 15, capacity: Int = 1024) {
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
        guard !sorted.isEmpty else { lastVariance = nil; return nil }
        let quarter = sorted.count >= 4 ? sorted.count / 4 : 0
        let kept = sorted[quarter..<(sorted.count - quarter)]
        let result = TrimmedMean(kept)
        lastVariance = result.varianceOfMean
        return result.mean
    }

    public mutating func reset() {
        samples.removeAll()
        lastVariance = nil
    }
}
