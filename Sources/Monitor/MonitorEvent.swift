/// One line of the enter/exit event log (`e`).
public struct MonitorEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case enter, exit, info, warning
    }

    /// Seconds since the session started, on the source's clock.
    public var time: Double
    public var kind: Kind
    /// What happened (`"Rosetta Stone (cast)"`, `"hci0 lost: device removed"`).
    public var message: String

    public init(time: Double, kind: Kind, message: String) {
        self.time = time
        self.kind = kind
        self.message = message
    }
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
