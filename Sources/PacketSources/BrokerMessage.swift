/// A message a venue's broker delivered (`SourceSpec.broker`), or one read back from a venue
/// recording: what a scanner published, and when this machine received it (Unix seconds, the only
/// clock on this path; the venue view takes time as data from here on).
public struct BrokerMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var receivedAt: Double
    /// Held by the broker from before the subscription (a scanner's last status).
    public var retained: Bool

    public init(topic: String, payload: [UInt8], receivedAt: Double, retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.receivedAt = receivedAt
        self.retained = retained
    }
}
