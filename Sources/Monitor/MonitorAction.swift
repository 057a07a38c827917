import BeaconFormats

/// What a key means, independent of which key it is (htop's Action.c functions): the key map binds
/// keys to actions, `MonitorState.perform` carries them out.
public enum MonitorAction: Hashable, Sendable {
    case quit
    case selectPrevious, selectNext, selectFirst, selectLast, pageUp, pageDown
    /// Selects the n-th visible row (mouse click).
    case selectRow(Int)
    case toggleDetail
    case cycleSort
    case beginFilter
    case cycleRangingFilter
    case togglePause
    case step
    case speedUp, slowDown
    case seekBackward, seekForward
    case toggleRecording
    /// Start or stop writing every beacon's readings per tick as CSV (`--export`).
    case toggleExport
    case calibrate
    case toggleEventLog
    /// The health view: every transmitter's battery, TLM, interval, loss and findings.
    case toggleHealth
    case toggleScannerList
    /// A venue's devices: the ESPresense ids that name no beacon (phones), with room and distance.
    case toggleDeviceList
    case toggleHelp
    /// Leaves a secondary screen (detail, help, log, calibration) for the table.
    case back
    case resize
}

/// What a performed action asks of the loop (htop's Htop_Reaction): redraw, or stop.
public struct Reaction: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The screen changed: draw again.
    public static let redraw = Reaction(rawValue: 1 << 0)
    /// The whole terminal must be repainted (after a resize).
    public static let fullRepaint = Reaction(rawValue: 1 << 1)
    /// The action emitted a `MonitorCommand` for the source side.
    public static let command = Reaction(rawValue: 1 << 2)
    /// Leave the loop and restore the terminal.
    public static let quit = Reaction(rawValue: 1 << 3)
}

/// Requests the monitor cannot satisfy itself: the loop hands each to the wiring (a closure) which
/// forwards it to the source, recorder, ranging engine or catalog.
public enum MonitorCommand: Hashable, Sendable {
    case togglePause
    /// Pause the replay if it runs, then deliver its next packet (`.`).
    case step
    /// Replay speed up (`+`) or down (`-`); the source picks its own steps (1x, 2x, 4x, ...).
    case speedUp, slowDown
    /// Seek the replay by this many seconds (negative: backwards).
    case seek(seconds: Double)
    case toggleRecording
    case toggleExport
    /// Use this ranging filter for the table's accuracy column.
    case selectFilter(String)
    /// Start collecting 1 m samples for this beacon (calibration wizard opened).
    case startCalibration(BeaconIdentity)
    /// Save the collected measured power as the beacon's catalog override (Enter in the wizard).
    case saveCalibration(BeaconIdentity, measuredPower: Int)
    /// The wizard was closed without saving.
    case cancelCalibration
}
