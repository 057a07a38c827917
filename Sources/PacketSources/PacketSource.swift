/// Anything that yields HCI packets (or sightings) and news about itself: a live transport, a
/// replay, the simulator, a recording around any of them. Each runs on a thread of its own and
/// delivers `Sendable` batches into its consumer's one bounded `SourceInbox`, so live and replay
/// share one data path downstream (btmon's habit).
public protocol PacketSource: Sendable {
    /// The source's name as the user gave it, for messages.
    var name: String { get }
    /// Opens the source (start-up errors are thrown, before anything is delivered) and starts
    /// delivering into `sink`; `sink.finish()` follows the last event.
    func start(into sink: any SourceSink) throws
    /// Ends the source: it delivers what it has, then finishes (a live source within one poll
    /// interval).
    func stop()
}
