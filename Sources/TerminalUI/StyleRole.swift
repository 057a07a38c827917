/// What a cell means, not how it looks: the renderer assigns roles, `StyleTable` alone turns them into
/// colours and attributes (htop's ColorElements), so NO_COLOR and 8-colour terminals need no change
/// to rendering and tests assert meaning rather than escape codes.
public enum StyleRole: UInt8, Sendable, CaseIterable {
    case plain
    /// The title bar.
    case header
    /// Column headings and section labels.
    case columnHeader
    /// The selected row.
    case selected
    /// The nearest exhibit's row and the panel's title.
    case nearest
    /// A beacon that has gone quiet.
    case stale
    case immediate, near, far, unknown
    /// Malformed packets, a lost source, a poor calibration.
    case warning
    /// The status line.
    case status
    /// A warning inside the status line.
    case statusWarning
    /// The recording indicator.
    case recording
    /// Charts, sparklines and the calibration progress bar.
    case chart
    /// Secondary text: axis labels, hints, empty-table messages.
    case muted
    /// A beacon with a health finding or a duplicate: the row's `!` mark, the health view's and
    /// detail pane's finding lines.
    case finding

    /// One letter per role for test assertions (`StyleRole.code`), unique across roles.
    public var code: Character {
        switch self {
        case .plain: "."
        case .header: "H"
        case .columnHeader: "C"
        case .selected: "S"
        case .nearest: "N"
        case .stale: "s"
        case .immediate: "i"
        case .near: "n"
        case .far: "f"
        case .unknown: "u"
        case .warning: "W"
        case .status: "T"
        case .statusWarning: "w"
        case .recording: "R"
        case .chart: "c"
        case .muted: "m"
        case .finding: "!"
        }
    }
}
