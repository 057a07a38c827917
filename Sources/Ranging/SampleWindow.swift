/// A bounded ring of (time, value) samples, oldest first, for the window filters.
///
/// The capacity bounds memory whatever the advertising rate: when full, the oldest sample is
/// overwritten even if still inside the time window (documented per filter). Storage grows on
/// demand up to the capacity, so a beacon heard ten times a second keeps room for about what its
/// window holds, not for 1,024 samples: the monitor runs every filter for every beacon it tracks,
/// and reserving the whole capacity up front was 32 KB per beacon (issue 12 item 8).
public struct SampleWindow: Sendable {
    private var times: [Double] = []
    private var values: [Double] = []
    private var head = 0
    public private(set) var count = 0
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
    }

    public mutating func append(_ value: Double, at time: Double) {
        if count == times.count, times.count < capacity { grow() }
        let size = times.count
        let slot = (head + count) % size
        times[slot] = time
        values[slot] = value
        if count < size { count += 1 } else { head = (head + 1) % size }
    }

    /// Doubles the storage (at least 16, at most `capacity`), oldest sample first.
    private mutating func grow() {
        let size = min(capacity, max(16, times.count * 2))
        var newTimes = [Double](repeating: 0, count: size)
        var newValues = [Double](repeating: 0, count: size)
        for index in 0..<count {
            newTimes[index] = times[(head + index) % times.count]
            newValues[index] = values[(head + index) % values.count]
        }
        times = newTimes
        values = newValues
        head = 0
    }

    /// Drops samples with `time <= cutoff` (strictly older than the window).
    public mutating func dropSamples(notAfter cutoff: Double) {
        while count > 0, times[head] <= cutoff {
            head = (head + 1) % times.count
            count -= 1
        }
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The values, oldest first.
    public var orderedValues: [Double] {
        (0..<count).map { values[(head + $0) % values.count] }
    }

    public var newestTime: Double? { count == 0 ? nil : times[(head + count - 1) % times.count] }
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
