/// One line of the enter/exit event log (`e`).
public struct MonitorEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case enter, exit, info, warning
    }

    /// Seconds since the session started, on the source's clock: the log's order.
    public var time: Double
    public var kind: Kind
    /// What happened (`"Rosetta Stone (cast)"`, `"hci0 lost: device removed"`).
    public var message: String
    /// A replay's position when it happened (seconds into the file, as the status line shows it);
    /// nil for a live source. A replay's session time drifts from it: `--from 120` starts the
    /// session two minutes in, and a seek back or a loop moves the position, never the time.
    public var position: Double?

    public init(time: Double, kind: Kind, message: String, position: Double? = nil) {
        self.time = time
        self.kind = kind
        self.message = message
        self.position = position
    }

    /// The time column's seconds: the replay's position, else the session's time.
    public var shownTime: Double { position ?? time }
}

extension MonitorEvent {
    /// `/` on the event log: `needle` (lowercased, trimmed) is in its kind or its message, in any
    /// case (`/rosetta`, `/café`, `/warning`), as `less`'s `&pattern` keeps the lines holding it.
    /// Not its time: `CellFormat.clock` writes it for the screen, and `/00:1` keeping every event
    /// of a minute's seconds is no search a person makes.
    func matches(_ needle: String) -> Bool {
        kind.rawValue.contains(needle) || message.lowercased().contains(needle)
    }
}
