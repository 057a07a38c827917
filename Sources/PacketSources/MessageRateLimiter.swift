/// Keeps a flood of like messages readable: the first `burst` pass, then one per `interval`
/// seconds, and the one that passes after a hold-back says how many were held back. A controller
/// sending random bytes made about 700 framing lines a second on stderr before this.
///
/// Pure (told the time, never reads a clock), so the policy is tested without waiting.
public struct MessageRateLimiter: Sendable, Equatable {
    public let burst: Int
    public let interval: Double
    private var tokens: Double
    private var lastTime: Double?
    public private(set) var suppressed = 0

    public init(burst: Int = 5, interval: Double = 1) {
        self.burst = burst
        self.interval = interval
        tokens = Double(burst)
    }

    /// nil when the message at `time` is held back (and counted); else the text to append to it:
    /// empty, or " (N similar messages suppressed)".
    public mutating func admit(at time: Double) -> String? {
        if let lastTime, time > lastTime {
            tokens = min(Double(burst), tokens + (time - lastTime) / interval)
        }
        if lastTime == nil || time > lastTime! { lastTime = time }
        guard tokens >= 1 else {
            suppressed += 1
            return nil
        }
        tokens -= 1
        defer { suppressed = 0 }
        return suppressed == 0 ? "" : " (\(suppressed) similar message\(suppressed == 1 ? "" : "s") suppressed)"
    }
}
