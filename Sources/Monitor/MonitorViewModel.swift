import BeaconFormats
import Survey

/// What one frame shows: `MonitorState` after filtering, sorting and selection, ready for the pure
/// renderer (`TerminalUI.render(_:size:charset:)`).
public struct MonitorViewModel: Sendable, Equatable {
    public var title: String?
    /// Filtered and sorted rows, in display order.
    public var rows: [BeaconRowModel]
    /// Rows before filtering (the title bar shows "12 of 40" while a filter is active).
    public var totalRowCount: Int
    public var selectedIndex: Int?
    /// The detail pane's beacon once it is no longer heard (forgotten after its silence): the pane
    /// says so under its id rather than showing another beacon.
    public var goneBeacon: BeaconIdentity?
    public var nearest: NearestExhibit?
    public var source: SourceStatus
    public var screen: MonitorScreen
    public var sort: SortOrder
    public var filterText: String
    public var isEditingFilter: Bool
    public var activeFilter: String?
    /// The events the event log's filter matches, oldest first.
    public var events: [MonitorEvent]
    /// Events before that filter (the log's heading counts "Events (12 of 480)" while it narrows).
    public var totalEventCount: Int
    public var calibration: CalibrationProgress?
    /// The key table, for the help screen.
    public var keyBindings: [KeyBinding]
    /// Beacon health: the health view, row marks, the detail pane's health lines.
    public var health: BeaconConditions
    /// Transmitters before the health view's filter (its title's "3 of 10 transmitters").
    public var totalTransmitterCount: Int
    /// A venue's scanners the scanner list's filter matches, for the `n` list.
    public var scanners: [ScannerState]
    /// Scanners before that filter (the title bar's "3 of 30 scanners").
    public var totalScannerCount: Int
    /// A venue's devices the device list's filter matches, for the `d` list.
    public var devices: [VenueDevice]
    /// Devices before that filter (the title bar's count; "1 of 2 devices" while it narrows the list).
    public var totalDeviceCount: Int
    /// The `/` filter of the screen shown where it has one of its own (`ScreenFilters.screens`:
    /// the scanner list, the device list, the event log); `filterText` is the table's.
    public var screenFilterText: String
    /// The device list's selection within `devices`.
    public var selectedDeviceIndex: Int?
    /// The device detail's device (every device, whatever the list's filter).
    public var shownDevice: ShownDevice?
    /// Lines the help screen or the detail pane is scrolled down by (the renderer keeps it in range).
    public var scroll: Int
    /// A screen scrolled down: the line to keep at its top, which wins over `scroll` where its
    /// paragraph is still there (`ScrollAnchor`).
    public var scrollAnchor: ScrollAnchor?

    public init(
        title: String? = nil, rows: [BeaconRowModel], totalRowCount: Int? = nil, selectedIndex: Int? = nil, goneBeacon: BeaconIdentity? = nil,
        nearest: NearestExhibit? = nil, source: SourceStatus, screen: MonitorScreen = .table,
        sort: SortOrder = .distance, filterText: String = "", isEditingFilter: Bool = false,
        activeFilter: String? = nil, events: [MonitorEvent] = [], totalEventCount: Int? = nil, calibration: CalibrationProgress? = nil,
        keyBindings: [KeyBinding] = KeyMap.standard.bindings, health: BeaconConditions = BeaconConditions(),
        totalTransmitterCount: Int? = nil, scanners: [ScannerState] = [], totalScannerCount: Int? = nil, devices: [VenueDevice] = [],
        totalDeviceCount: Int? = nil, screenFilterText: String = "", selectedDeviceIndex: Int? = nil, shownDevice: ShownDevice? = nil,
        scroll: Int = 0, scrollAnchor: ScrollAnchor? = nil
    ) {
        self.selectedDeviceIndex = selectedDeviceIndex
        self.shownDevice = shownDevice
        self.devices = devices
        self.totalDeviceCount = totalDeviceCount ?? devices.count
        self.totalScannerCount = totalScannerCount ?? scanners.count
        self.totalEventCount = totalEventCount ?? events.count
        self.screenFilterText = screenFilterText
        self.scroll = scroll
        self.scrollAnchor = scrollAnchor
        self.health = health
        self.totalTransmitterCount = totalTransmitterCount ?? health.transmitters.count
        self.scanners = scanners
        self.title = title
        self.rows = rows
        self.totalRowCount = totalRowCount ?? rows.count
        self.selectedIndex = selectedIndex
        self.goneBeacon = goneBeacon
        self.nearest = nearest
        self.source = source
        self.screen = screen
        self.sort = sort
        self.filterText = filterText
        self.isEditingFilter = isEditingFilter
        self.activeFilter = activeFilter
        self.events = events
        self.calibration = calibration
        self.keyBindings = keyBindings
    }

    public var selectedRow: BeaconRowModel? { selectedIndex.map { rows[$0] } }
}

/// The device detail's subject: the id selected on the list, and the device as the snapshot has it
/// now; nil once presence forgot it (the detail says so rather than showing another device), and
/// then `lastKnown`: the device as the detail last showed it, its room and readings.
public struct ShownDevice: Sendable, Equatable {
    public var id: String
    public var device: VenueDevice?
    public var lastKnown: VenueDevice?

    public init(id: String, device: VenueDevice?, lastKnown: VenueDevice? = nil) {
        self.id = id
        self.device = device
        self.lastKnown = lastKnown
    }
}
