import PacketSources

/// How an `MQTTClient` connects: the broker, who it is, TLS files, its last will, session and
/// reconnect policy, and the outgoing buffer's bounds.
public struct MQTTClientOptions: Sendable, Equatable {
    public var endpoint: MQTTEndpoint
    /// At most 23 characters for an MQTT 3.1.1 broker that enforces the spec's minimum; mosquitto
    /// accepts longer ones.
    public var clientID: String
    /// Seconds between keep-alive pings; the broker declares the client gone (and publishes its
    /// will) after 1.5 times this without a packet.
    public var keepAlive: Int
    /// False keeps the session on the broker across disconnects: subscriptions stay and QoS 1
    /// messages queued for this client while it was away are delivered when it comes back.
    public var cleanSession: Bool
    public var tls: MQTTTLSFiles?
    /// Published by the broker when the client vanishes without disconnecting; the client also
    /// publishes it itself on a clean `stop()` (a clean DISCONNECT suppresses the will).
    public var will: MQTTOutgoingMessage?
    /// Published every time the connection comes up (the retained `online` status).
    public var birth: MQTTOutgoingMessage?
    public var backoff: ReconnectBackoff
    public var bufferMessageLimit: Int
    public var bufferByteLimit: Int
    /// QoS 1 messages in flight (sent, not yet acknowledged) at once; more wait inside libmosquitto.
    public var maxInflight: Int

    public init(
        endpoint: MQTTEndpoint, clientID: String, keepAlive: Int = 30, cleanSession: Bool = true,
        tls: MQTTTLSFiles? = nil, will: MQTTOutgoingMessage? = nil, birth: MQTTOutgoingMessage? = nil,
        backoff: ReconnectBackoff = ReconnectBackoff(initial: 0.5, maximum: 30, factor: 2),
        bufferMessageLimit: Int = MQTTOutgoingBuffer.defaultMessageLimit,
        bufferByteLimit: Int = MQTTOutgoingBuffer.defaultByteLimit, maxInflight: Int = 100
    ) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.tls = tls
        self.will = will
        self.birth = birth
        self.backoff = backoff
        self.bufferMessageLimit = bufferMessageLimit
        self.bufferByteLimit = bufferByteLimit
        self.maxInflight = maxInflight
    }
}

/// TLS files, PEM. With no CA file the system's trusted certificates are used; a client
/// certificate needs its key.
public struct MQTTTLSFiles: Sendable, Equatable {
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?

    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
