/// MQTT quality of service levels beacontop uses (MQTT 3.1.1 section 4.3). QoS 2 is left out: no
/// topic here needs exactly-once, and QoS 1 with a persistent session already loses nothing.
public enum MQTTQoS: Int32, Sendable, Equatable, Comparable {
    /// At most once: readings and telemetry, where the next message supersedes a lost one.
    case atMostOnce = 0
    /// At least once: visit events and status, which a backend must not miss.
    case atLeastOnce = 1

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A message to publish.
public struct MQTTOutgoingMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool
    /// How long the message is worth sending after it was published, in seconds, if it has to
    /// wait in the outgoing buffer for the broker; nil: always (events, status, telemetry). A
    /// reading's receiver takes it as heard when it arrives, so one that waited out an outage
    /// would say a beacon is here that left long ago: the buffer drops it at the flush instead.
    public var expiresAfter: Double?

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false, expiresAfter: Double? = nil) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.expiresAfter = expiresAfter
    }

    public init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}

/// A message the broker delivered, copied out of libmosquitto's buffers on its network thread so
/// it can cross to the consumer's loop. `receivedAt` is the wall clock (Unix seconds) when it
/// arrived, the only clock read on this path: everything downstream takes time as data.
public struct MQTTIncomingMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retained: Bool
    public var receivedAt: Double

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retained: Bool = false, receivedAt: Double) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retained = retained
        self.receivedAt = receivedAt
    }
}
