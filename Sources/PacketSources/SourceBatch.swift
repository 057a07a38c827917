/// Events a source handed over at once, and when they arrived (Unix seconds, the wall clock): a
/// consumer wakes once per batch, not once per packet, and still knows when each batch came (the
/// monitor runs a replay's capture clock on from the newest packet's arrival).
public struct SourceBatch: Sendable, Equatable {
    public var events: [SourceEvent]
    public var arrival: Double

    public init(events: [SourceEvent], arrival: Double) {
        self.events = events
        self.arrival = arrival
    }
}
