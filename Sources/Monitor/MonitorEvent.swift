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
