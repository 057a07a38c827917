import Synchronization

/// What a headless publisher (the scanner agent, `scan --publish`) says about its broker
/// connection on standard error: each outage once. The loss, the first failed attempt and any
/// attempt that fails for another reason, then the reconnection with how long the broker was
/// away; not one line per attempt, which over a night-long outage (a 30 s back-off) would be 120
/// lines an hour in the journal. Before the first connection it says nothing: the command's
/// start-up check reports that failure in one line and exits. A broker that keeps closing the
/// connection right after accepting it (mosquitto does that to a client whose id another client
/// takes: two agents given one `--client-id` kick each other out every half second) is said once,
/// with that guess, and its drops are not. Pure: time is an argument.
public struct BrokerOutageLog: Sendable, Equatable {
    /// A connection lost this soon after it was accepted counts as a quick drop; `quickDropsToHint`
    /// of them in a row make a flapping connection.
    static let quickDrop = 5.0
    static let quickDropsToHint = 3
    private var connectedOnce = false
    private var connectedAt: Double?
    private var quickDrops = 0
    private var outageStart: Double?
    private var failedAttempts = 0
    private var lastReason: String?

    public init() {}

    /// The line to print for `status` at monotonic `time`, or nil when it is no news.
    public mutating func line(for status: MQTTClientStatus, at time: Double) -> String? {
        switch status {
        case .connected(let broker, let stale):
            defer {
                connectedOnce = true
                connectedAt = time
                outageStart = nil
                failedAttempts = 0
                lastReason = nil
            }
            guard let start = outageStart, quickDrops < Self.quickDropsToHint else { return nil }
            let attempts = failedAttempts == 0 ? "" : failedAttempts == 1 ? ", 1 failed attempt" : ", \(failedAttempts) failed attempts"
            // The stale ones are said here too, as the closing line counts them: a reading that
            // waited past a view's lifetime is dropped, not sent late (`MQTTOutgoingBuffer`).
            let dropped = stale == 0 ? "" : stale == 1 ? ", 1 stale reading dropped (it expired while it waited)" : ", \(stale) stale readings dropped (they expired while they waited)"
            return "\(broker): connected again after \(Self.seconds(time - start)) away\(attempts); the messages that waited are going out\(dropped)"
        case .lost(let broker, let reason, _):
            guard connectedOnce else { return nil }
            outageStart = time
            failedAttempts = 0
            lastReason = reason
            quickDrops = connectedAt.map { time - $0 < Self.quickDrop } == true ? quickDrops + 1 : 0
            if quickDrops == Self.quickDropsToHint {
                return "\(broker): the broker closed the connection within \(Int(Self.quickDrop)) s of accepting it \(quickDrops) times in a row"
                    + " (\(reason)): is another client using the same client id (--client-id)? Its drops are not said again"
            }
            guard quickDrops < Self.quickDropsToHint else { return nil }
            return "\(status); messages wait in the buffer"
        case .connectFailed(_, _, let reason, _):
            guard connectedOnce else { return nil }
            if outageStart == nil { outageStart = time }
            failedAttempts += 1
            guard reason != lastReason else { return nil }
            lastReason = reason
            return "\(status) (said again only if the reason changes)"
        case .stopped:
            return nil
        }
    }

    private static func seconds(_ value: Double) -> String {
        value < 10 ? "\((value * 10).rounded() / 10) s" : "\(Int(value.rounded())) s"
    }
}

extension MQTTClient {
    /// A client that reports its connection news through `report` (one line per outage, above)
    /// and delivers nothing else: a publisher that subscribes to nothing needs no event stream.
    public static func publisher(options: MQTTClientOptions, report: @escaping @Sendable (String) -> Void) throws(MQTTClientError) -> MQTTClient {
        let log = OutageLogBox()
        return try MQTTClient(options: options, handler: { event in
            guard case .status(let status) = event else { return true }
            if let line = log.state.withLock({ $0.line(for: status, at: MQTTConnectionLoop.monotonic()) }) { report(line) }
            return true
        }, onFinish: {})
    }
}

/// The outage log shared with the client's network thread.
private final class OutageLogBox: Sendable {
    let state = Mutex(BrokerOutageLog())
}
