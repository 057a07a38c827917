/// News about a source itself, in its event stream beside the packets: shown on the status line
/// and in the event log, printed by the headless commands. A lost transport is an event, not a crash.
public enum SourceNotice: Sendable, Equatable, CustomStringConvertible {
    /// The transport is open (first time or after a reconnect).
    case connected(source: String)
    /// The transport failed; a live source then tries to reconnect.
    case lost(source: String, reason: String)
    /// Waiting `delay` seconds before reconnect attempt `attempt`.
    case reconnecting(source: String, attempt: Int, delay: Double)
    /// Bytes that were not H4 were skipped (stream offset and count).
    case framingError(source: String, detail: String)
    /// A replay reached its end, or was stopped.
    case ended(source: String, reason: String)

    public var description: String {
        switch self {
        case .connected(let source): "\(source): connected"
        case .lost(let source, let reason): "\(source): lost (\(reason))"
        case .reconnecting(let source, let attempt, let delay): "\(source): reconnecting in \(delay) s (attempt \(attempt))"
        case .framingError(let source, let detail): "\(source): \(detail)"
        case .ended(let source, let reason): "\(source): \(reason)"
        }
    }
}
