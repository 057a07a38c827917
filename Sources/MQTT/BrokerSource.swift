import Foundation
import PacketSources
import Synchronization

/// A venue's broker as a source (`SourceSpec.broker`: `monitor mqtt://BROKER`, `scan mqtt://BROKER`):
/// the client subscribes to every scanner's topics and its network thread hands each message into
/// the consumer's inbox as `SourceEvent.brokerMessage` (connection news as notices), down the one
/// path a radio's packets take. The consumer's venue view decodes them; what it publishes back
/// (visit events, occupancy) goes out through `publish`.
public final class BrokerSource: PacketSource {
    public let name: String
    private let options: MQTTClientOptions
    private let subscriptions: [String]
    private let connectTimeout: Double
    private let shared = Shared()

    /// What the client's network thread and the commands share (the thread holds this, not the
    /// source, so the source and its client hold no cycle).
    private final class Shared: Sendable {
        struct State {
            var client: MQTTClient?
            var sink: (any SourceSink)?
            var delivering = true
            var finished = false
            var lost = false
        }

        let state = Mutex(State())

        var client: MQTTClient? { state.withLock { $0.client } }

        func finishOnce() {
            let sink = state.withLock { state -> (any SourceSink)? in
                defer { state.finished = true }
                return state.finished ? nil : state.sink
            }
            sink?.finish()
        }
    }

    public init(options: MQTTClientOptions, subscriptions: [String], connectTimeout: Double = 10) {
        name = options.endpoint.description
        self.options = options
        self.subscriptions = subscriptions
        self.connectTimeout = connectTimeout
    }

    /// Connects and waits for the first connection, so a wrong password or an unreachable broker
    /// is one clear start-up error, not a screen of reconnect notices. A radio cannot wait and
    /// neither can a broker: messages past the inbox's room are dropped and counted.
    public func start(into sink: any SourceSink) throws {
        let name = name
        let shared = shared
        shared.state.withLock { $0.sink = sink }
        let client = try MQTTClient(options: options, handler: { event in
            let (delivering, notice) = shared.state.withLock { state -> (Bool, SourceNotice?) in
                guard state.delivering else { return (false, nil) }
                guard case .status(let status) = event else { return (true, nil) }
                return (true, Self.notice(status, name: name, lost: &state.lost))
            }
            guard delivering else { return false }
            if case .message(let message) = event {
                sink.deliver([.brokerMessage(BrokerMessage(
                    topic: message.topic, payload: message.payload, receivedAt: message.receivedAt, retained: message.retained
                ))], .dropWhenFull)
            } else if let notice {
                sink.deliver([.notice(notice)], .dropWhenFull)
            }
            return true
        }, onFinish: { shared.finishOnce() })
        for filter in subscriptions { client.subscribe(filter, qos: MQTTQoS.atMostOnce) }
        shared.state.withLock { $0.client = client }
        client.start()
        if let failure = client.waitForFirstConnection(timeout: connectTimeout) {
            close(drainTimeout: 0)
            throw failure
        }
        // Up means subscribed: a scanner's message published after the command says it runs
        // (its first line, the monitor's screen) is never missed for a SUBACK still on its way.
        guard client.waitForSubscriptions(timeout: connectTimeout) else {
            close(drainTimeout: 0)
            throw MQTTConnectionFailure(broker: name, reason: "the broker did not acknowledge the subscriptions within \(connectTimeout) s")
        }
    }

    /// Ends delivery (the consumer's inbox finishes) but keeps the connection, so the consumer can
    /// still publish its last events; `close()` then disconnects.
    public func stop() {
        shared.state.withLock { $0.delivering = false }
        shared.finishOnce()
    }

    /// Disconnects after what was published reached the broker (QoS 1 acknowledged, up to
    /// `drainTimeout` s). With messages still waiting and the broker away (the view's last visit
    /// events when the broker was lost), first waits up to `brokerGrace` s for it to come back,
    /// retrying every half second. Returns how many messages are not known to have arrived.
    @discardableResult
    public func close(drainTimeout: Double = 2, brokerGrace: Double = 0) -> Int {
        stop()
        guard let client = shared.client else { return 0 }
        if brokerGrace > 0, client.statistics.undelivered > 0 {
            client.hurryReconnect()
            let deadline = MQTTConnectionLoop.monotonic() + brokerGrace
            while MQTTConnectionLoop.monotonic() < deadline {
                let statistics = client.statistics
                if statistics.connected && statistics.buffered == 0 { break }
                usleep(20_000)
            }
        }
        client.stop(drainTimeout: drainTimeout)
        return client.statistics.undelivered
    }

    /// Published and not yet known to have reached the broker.
    public var undelivered: Int { shared.client?.statistics.undelivered ?? 0 }

    /// Publishes one of the view's messages (QoS 1 ones are resent until acknowledged, and wait
    /// in the client's bounded buffer while the broker is away).
    public func publish(_ message: MQTTOutgoingMessage) {
        shared.client?.publish(message)
    }

    public var statistics: MQTTClientStatistics? { shared.client?.statistics }

    /// The first `connected` is the start-up's, said by the command; one after a loss is news.
    private static func notice(_ status: MQTTClientStatus, name: String, lost: inout Bool) -> SourceNotice? {
        switch status {
        case .connected:
            defer { lost = false }
            return lost ? .connected(source: name) : nil
        case .connectFailed(_, let attempt, let reason, let retryIn):
            return .reconnecting(source: name, attempt: attempt, delay: retryIn, reason: reason)
        case .lost(_, let reason, _):
            lost = true
            return .lost(source: name, reason: reason)
        case .stopped:
            return nil
        }
    }
}
