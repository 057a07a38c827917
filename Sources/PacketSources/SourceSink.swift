/// Where a started source delivers its events: the consumer's `SourceInbox`, or a wrapper in
/// between (`RecordingSource` writes every packet on its way through).
public protocol SourceSink: Sendable {
    /// Hands over `events` in order. Called on the source's own thread.
    func deliver(_ events: [SourceEvent], _ delivery: SourceDelivery)
    /// The source ended (a replay reached its end, a live source was stopped): nothing follows.
    func finish()
}

/// What a source does when its consumer has fallen behind and the inbox is full.
public enum SourceDelivery: Sendable, Equatable {
    /// A radio cannot wait (the controller and the kernel would drop instead, uncounted): packets
    /// beyond the inbox's room are dropped and counted. Notices always go through.
    case dropWhenFull
    /// A file or a simulation can: the source waits for room, so a replay at full speed runs
    /// exactly as fast as its consumer ranges and loses nothing.
    case waitForRoom
}
