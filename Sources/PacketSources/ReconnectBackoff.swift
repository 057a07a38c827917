/// Exponential back-off between reconnect attempts, so an unplugged dongle is not hammered.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    public var factor: Double

    public init(initial: Double = 0.5, maximum: Double = 10, factor: Double = 2) {
        self.initial = initial
        self.maximum = maximum
        self.factor = factor
    }

    /// Delay before attempt `attempt` (1-based).
    public func delay(attempt: Int) -> Double {
        var delay = initial
        for _ in 1..<max(1, attempt) { delay = min(maximum, delay * factor) }
        return min(delay, maximum)
    }
}
