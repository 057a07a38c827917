/// Anything that yields HCI packets and status news: a live transport, a replay, a recording
/// around either. Live and replay share one pipeline downstream (btmon's habit).
public protocol PacketSource: Sendable {
    /// The source's name as the user gave it, for messages.
    var name: String { get }
    /// Packets and status, in arrival order; finishes when the source ends or is stopped.
    var events: AsyncStream<SourceEvent> { get }
    /// Opens the source (start-up errors are thrown) and starts delivering `events`.
    func start() throws
    func stop()
}

extension LiveSource: PacketSource {
    public var name: String { spec.description }
}

extension ReplaySource: PacketSource {}
