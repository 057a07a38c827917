import CMosquitto
import Foundation

/// An MQTT client over libmosquitto: connects, reconnects with back-off, publishes (buffering
/// while the broker is away), subscribes, and hands what the broker delivers to one consumer as
/// `MQTTClientEvent` values on `events`.
///
/// Threading: the client runs a network thread of its own that calls `mosquitto_connect` and
/// `mosquitto_loop` (select, then `loop_read`/`loop_write`/`loop_misc`). Not libmosquitto's
/// `loop_start`: its reconnect loop retries without telling anyone why, and its thread quits
/// silently on a TLS or name-lookup error, where every failure here is an event with its reason.
/// Not the caller's loop either: the monitor's owner loop waits on the terminal, and a thread
/// that hands over `Sendable` values is how every transport here reaches it (`LiveSource`).
/// `publish` may be called from any thread.
public final class MQTTClient: Sendable {
    public let options: MQTTClientOptions
    /// Messages and status, in arrival order; finishes after `stop()`. Holds at most
    /// `inboxLimit` undelivered events (the oldest messages beyond are counted and dropped).
    public let events: AsyncStream<MQTTClientEvent>
    private let loop: MQTTConnectionLoop

    public static let inboxLimit = 200_000

    public init(options: MQTTClientOptions) throws(MQTTClientError) {
        self.options = options
        let (events, continuation) = AsyncStream.makeStream(of: MQTTClientEvent.self, bufferingPolicy: .bufferingOldest(Self.inboxLimit))
        self.events = events
        loop = try MQTTConnectionLoop(options: options, continuation: .stream(continuation))
    }

    /// A client that hands every event to `handler` on its network thread instead of `events`
    /// (which then stays empty): a source that delivers into an inbox of its own needs no second
    /// queue in between. `handler` returns false when it dropped the event (counted in
    /// `receivedDropped`); `onFinish` runs once after the last event.
    public init(options: MQTTClientOptions, handler: @escaping @Sendable (MQTTClientEvent) -> Bool, onFinish: @escaping @Sendable () -> Void) throws(MQTTClientError) {
        self.options = options
        let (events, continuation) = AsyncStream.makeStream(of: MQTTClientEvent.self)
        continuation.finish()
        self.events = events
        loop = try MQTTConnectionLoop(options: options, continuation: MQTTEventEmitter(deliver: handler, finish: onFinish))
    }

    /// Starts connecting on the network thread; returns at once.
    public func start() { loop.start() }

    /// Subscribes now if connected, and again after every reconnect.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atMostOnce) { loop.subscribe(filter, qos: qos) }

    /// Publishes, or keeps the message in the bounded buffer while the broker is away.
    @discardableResult
    public func publish(_ message: MQTTOutgoingMessage) -> MQTTPublishOutcome { loop.publish(message) }

    /// Waits until the first connection is up (nil) or the first attempt failed (its reason), at
    /// most `timeout` seconds: a command's start-up check, giving one clear line for a wrong
    /// password or an unreachable broker before it settles into reconnecting.
    public func waitForFirstConnection(timeout: Double) -> MQTTConnectionFailure? { loop.waitForFirstConnection(timeout: timeout) }

    /// Waits until the broker has acknowledged the subscriptions made so far (true) or `timeout`
    /// seconds passed (false): after it, nothing published is missed for want of a subscription.
    public func waitForSubscriptions(timeout: Double) -> Bool { loop.waitForSubscriptions(timeout: timeout) }

    /// Publishes the will's payload itself (the `offline` status), waits up to `drainTimeout`
    /// seconds for it to be acknowledged (so QoS 1 messages before it are through), disconnects,
    /// ends the network thread and frees the library handle. Safe to call more than once.
    public func stop(drainTimeout: Double = 2) { loop.stop(drainTimeout: drainTimeout) }

    public var statistics: MQTTClientStatistics { loop.statistics }

    /// From now on a lost broker is retried every half second rather than after the back-off's
    /// delay: for an owner about to stop that waits for its last messages to go out.
    public func hurryReconnect() { loop.hurryReconnect() }

    deinit { loop.stop(drainTimeout: 1) }
}

/// Where the network thread hands its events: the client's `AsyncStream`, or a handler.
struct MQTTEventEmitter: Sendable {
    let deliver: @Sendable (MQTTClientEvent) -> Bool
    let finish: @Sendable () -> Void

    /// False when the consumer dropped the event.
    @discardableResult
    func yield(_ event: MQTTClientEvent) -> Bool { deliver(event) }

    static func stream(_ continuation: AsyncStream<MQTTClientEvent>.Continuation) -> MQTTEventEmitter {
        MQTTEventEmitter(deliver: { event in
            if case .dropped = continuation.yield(event) { return false }
            return true
        }, finish: { continuation.finish() })
    }
}

public enum MQTTClientEvent: Sendable, Equatable {
    case message(MQTTIncomingMessage)
    case status(MQTTClientStatus)
}

/// What happened to the connection; `description` is the line a person reads.
public enum MQTTClientStatus: Sendable, Equatable, CustomStringConvertible {
    /// `stale`: buffered messages that expired while the broker was away, dropped at the flush
    /// on this connection (a reading older than a view's 4 s would be taken as heard now).
    case connected(broker: String, stale: Int = 0)
    /// An attempt failed before the broker accepted the client; the next comes in `retryIn` s.
    case connectFailed(broker: String, attempt: Int, reason: String, retryIn: Double)
    /// An established connection went away.
    case lost(broker: String, reason: String, retryIn: Double)
    case stopped(broker: String)

    public var description: String {
        switch self {
        case .connected(let broker, _): "\(broker): connected"
        case .connectFailed(let broker, let attempt, let reason, let retryIn):
            "\(broker): cannot connect (\(reason)); attempt \(attempt), retrying in \(Self.seconds(retryIn))"
        case .lost(let broker, let reason, let retryIn): "\(broker): lost (\(reason)); reconnecting in \(Self.seconds(retryIn))"
        case .stopped(let broker): "\(broker): disconnected"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

public enum MQTTPublishOutcome: Sendable, Equatable {
    /// Handed to libmosquitto (QoS 1: it resends until acknowledged).
    case sent
    /// Waiting in the outgoing buffer for the broker to come back.
    case buffered
    /// Not publishable (bad topic, oversized, client stopped): the reason.
    case rejected(String)
}

public struct MQTTConnectionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var broker: String
    public var reason: String

    public var description: String { "\(broker): \(reason)" }
}

/// Options that cannot work (unreadable TLS files, a bad keep-alive), found before connecting.
public struct MQTTClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

public struct MQTTClientStatistics: Sendable, Equatable {
    /// Connections the broker accepted.
    public var connects = 0
    /// Up now (the broker accepted, and the connection has not been lost since).
    public var connected = false
    /// Failed attempts and lost connections.
    public var failures = 0
    public var lastFailure: String?
    /// Messages handed to libmosquitto.
    public var published = 0
    /// Written to the socket (QoS 0) or acknowledged by the broker (QoS 1).
    public var confirmed = 0
    /// Waiting in the outgoing buffer now.
    public var buffered = 0
    /// Dropped from the full outgoing buffer, and how many of those were QoS 1.
    public var dropped = 0
    public var droppedQoS1 = 0
    /// Expired while they waited for the broker (readings older than a receiver would use).
    public var droppedStale = 0
    public var received = 0
    /// Received but dropped because the consumer's inbox was full.
    public var receivedDropped = 0

    /// Published and not known to have reached the broker: waiting in the buffer, or handed to
    /// libmosquitto and not yet written (QoS 0) or acknowledged (QoS 1).
    public var undelivered: Int { buffered + max(0, published - confirmed) }

    public init() {}
}
