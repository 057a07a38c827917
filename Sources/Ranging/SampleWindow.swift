/// A bounded ring of (time, value) samples, oldest first, for the window filters.
///
/// The capacity bounds memory whatever the advertising rate: when full, the oldest sample is
/// overwritten even if still inside the time window (documented per filter).
public struct SampleWindow: Sendable {
    private var times: [Double]
    private var values: [Double]
    private var head = 0
    public private(set) var count = 0
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        times = Array(repeating: 0, count: capacity)
        values = Array(repeating: 0, count: capacity)
    }

    public mutating func append(_ value: Double, at time: Double) {
        let slot = (head + count) % capacity
        times[slot] = time
        values[slot] = value
        if count < capacity { count += 1 } else { head = (head + 1) % capacity }
    }

    /// Drops samples with `time <= cutoff` (strictly older than the window).
    public mutating func dropSamples(notAfter cutoff: Double) {
        while count > 0, times[head] <= cutoff {
            head = (head + 1) % capacity
            count -= 1
        }
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The values, oldest first.
    public var orderedValues: [Double] {
        (0..<count).map { values[(head + $0) % capacity] }
    }

    public var newestTime: Double? { count == 0 ? nil : times[(head + count - 1) % capacity] }
}

/// The mean of the samples a window filter kept after trimming its extremes, and the variance of
/// that mean (sample variance over the count), which the engine turns into an accuracy range.
struct TrimmedMean {
    var mean: Double
    var varianceOfMean: Double

    init(_ kept: ArraySlice<Double>) {
        mean = kept.reduce(0, +) / Double(kept.count)
        let m = mean
        let spread = kept.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(1, kept.count - 1))
        varianceOfMean = spread / Double(kept.count)
    }
}
