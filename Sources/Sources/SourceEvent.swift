import HCI

/// What a source hands its consumer: a packet, or news about the source itself. A lost
/// transport is an event to show, not a crash (docs/sources.md).
public enum SourceEvent: Sendable, Equatable {
    case packet(HCIPacket)
    case status(SourceStatus)
}

public enum SourceStatus: Sendable, Equatable, CustomStringConvertible {
    /// The transport is open (first time or after a reconnect).
    case connected(source: String)
    /// Opening it powered the adapter on: it was down (no bluetoothd powers adapters on).
    case poweredOn(source: String)
    /// The transport failed; a live source then tries to reconnect.
    case lost(source: String, reason: String)
    /// Waiting `delay` seconds before reconnect attempt `attempt`; `reason` is why the transport
    /// is down: how it was lost (attempt 1), or why the previous attempt failed.
    case reconnecting(source: String, attempt: Int, delay: Double, reason: String)
    /// Bytes that were not H4 were skipped (stream offset and count).
    case framingError(source: String, detail: String)
    /// A replay reached its end, or was stopped.
    case ended(source: String, reason: String)

    public var description: String {
        switch self {
        case .connected(let source): "\(source): connected"
        case .poweredOn(let source): "\(source): the adapter was down; beacontop brought it up (HCIDEVUP, with CAP_NET_ADMIN)"
        case .lost(let source, let reason): "\(source): lost (\(reason))"
        case .reconnecting(let source, let attempt, let delay, let reason):
            "\(source): \(reason); reconnecting in \(delay) s (attempt \(attempt))"
        case .framingError(let source, let detail): "\(source): \(detail)"
        case .ended(let source, let reason): "\(source): \(reason)"
        }
    }
}

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
