/// One binding of the key table: the same table drives key handling and the help screen (`?`), so the
/// help cannot drift from what the keys do.
public struct KeyBinding: Sendable, Hashable {
    public var keys: [Key]
    public var action: MonitorAction
    /// The help screen's one-line description.
    public var summary: String

    public init(_ keys: [Key], _ action: MonitorAction, _ summary: String) {
        self.keys = keys
        self.action = action
        self.summary = summary
    }
}

/// Keys as data (htop's Action.c): key -> action. Unbound keys do nothing.
public struct KeyMap: Sendable {
    public let bindings: [KeyBinding]
    private let lookup: [Key: MonitorAction]

    public init(bindings: [KeyBinding]) {
        self.bindings = bindings
        var lookup: [Key: MonitorAction] = [:]
        for binding in bindings {
            for key in binding.keys where lookup[key] == nil { lookup[key] = binding.action }
        }
        self.lookup = lookup
    }

    public func action(for key: Key) -> MonitorAction? {
        switch key {
        case .click(let row, _): return .selectRow(row)
        case .resize: return .resize
        default: return lookup[key]
        }
    }

    /// The bindings listed by the help screen and the keys table in docs/screen.md, in this order.
    public static let standard = KeyMap(bindings: [
        KeyBinding([.character("q")], .quit, "quit (the terminal is restored)"),
        KeyBinding([.up, .character("k")], .selectPrevious, "select the previous beacon (scroll up a line)"),
        KeyBinding([.down, .character("j")], .selectNext, "select the next beacon (scroll down a line)"),
        KeyBinding([.pageUp], .pageUp, "select a page up (scroll a page up)"),
        KeyBinding([.pageDown], .pageDown, "select a page down (scroll a page down)"),
        KeyBinding([.home], .selectFirst, "select the first beacon (scroll to the top)"),
        KeyBinding([.end], .selectLast, "select the last beacon (scroll to the end)"),
        KeyBinding([.enter], .toggleDetail, "detail: charts, raw frame, filters; a device's scanners"),
        KeyBinding([.character("s")], .cycleSort, "sort by distance, RSSI, name, id"),
        KeyBinding([.character("/")], .beginFilter, "filter this screen: text or UUID[:major[:minor]]"),
        KeyBinding([.character("f")], .cycleRangingFilter, "pick the ranging filter"),
        KeyBinding([.character(" ")], .togglePause, "pause or resume"),
        KeyBinding([.character(".")], .step, "pause, then step one packet at a time"),
        KeyBinding([.character("+"), .character("=")], .speedUp, "replay faster"),
        KeyBinding([.character("-")], .slowDown, "replay slower"),
        KeyBinding([.left], .seekBackward, "seek back 10 s"),
        KeyBinding([.right], .seekForward, "seek forward 10 s"),
        KeyBinding([.character("r")], .toggleRecording, "start or stop recording"),
        KeyBinding([.character("x")], .toggleExport, "start or stop the CSV export of every reading"),
        KeyBinding([.character("c")], .calibrate, "calibrate the selected beacon at 1 m"),
        KeyBinding([.character("e")], .toggleEventLog, "enter/exit event log"),
        KeyBinding([.character("H")], .toggleHealth, "beacon health: battery, TLM, interval, loss, findings"),
        KeyBinding([.character("n")], .toggleScannerList, "venue: the scanners, online, last message, msg/s"),
        KeyBinding([.character("d")], .toggleDeviceList, "venue: the devices (phones)"),
        KeyBinding([.character("?"), .character("h")], .toggleHelp, "this help"),
        KeyBinding([.escape, .backspace], .back, "back to the table"),
    ])

    /// Seconds one left/right press seeks.
    public static let seekStep = 10.0
}
