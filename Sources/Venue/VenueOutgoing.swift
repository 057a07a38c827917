/// A message the venue logic wants published; the caller hands it to its MQTT client
/// (`MQTTOutgoingMessage(topic:payload:qos:retain:)`), keeping this module free of the network.
public struct VenueOutgoing: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    /// QoS 1 when true (visit events, status, occupancy), else QoS 0.
    public var atLeastOnce: Bool
    public var retain: Bool
    /// Seconds the message stays worth sending if it must wait for the broker (a reading: until
    /// its beacon's last packet is older than a view's reading lifetime); nil: always.
    public var expiresAfter: Double?

    public init(topic: String, payload: [UInt8], atLeastOnce: Bool = false, retain: Bool = false, expiresAfter: Double? = nil) {
        self.topic = topic
        self.payload = payload
        self.atLeastOnce = atLeastOnce
        self.retain = retain
        self.expiresAfter = expiresAfter
    }
}
