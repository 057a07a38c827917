import BeaconFormats
import Survey

/// Everything the data side hands the monitor at once: the adapter builds one from the ranging
/// snapshot and posts it (latest wins) to the loop's inbox from any thread.
public struct MonitorSnapshot: Sendable, Equatable {
    /// The catalog title (`The Little Museum`), or nil for the plain `beacontop` title.
    public var title: String?
    public var rows: [BeaconRowModel]
    public var nearest: NearestExhibit?
    public var source: SourceStatus
    /// The whole event log, oldest first; the log screen shows the newest that fit.
    public var events: [MonitorEvent]
    /// The filters `f` cycles through, and the one in use (shown in the title bar).
    public var filterNames: [String]
    public var activeFilter: String?
    public var calibration: CalibrationProgress?
    /// Every transmitter's health and each identity's condition (the health view `H`, row marks,
    /// the detail pane), as of its `time`.
    public var health: BeaconConditions
    /// A venue's scanners (`monitor mqtt://BROKER`), for the `n` list; empty otherwise.
    public var scanners: [ScannerState] = []
    /// The devices a venue tracks (ids that name no beacon), for the `d` list, by id; empty otherwise.
    public var devices: [VenueDevice] = []

    public init(
        title: String? = nil, rows: [BeaconRowModel] = [], nearest: NearestExhibit? = nil,
        source: SourceStatus, events: [MonitorEvent] = [], filterNames: [String] = [],
        activeFilter: String? = nil, calibration: CalibrationProgress? = nil, health: BeaconConditions = BeaconConditions(),
        scanners: [ScannerState] = [], devices: [VenueDevice] = []
    ) {
        self.devices = devices
        self.health = health
        self.scanners = scanners
        self.title = title
        self.rows = rows
        self.nearest = nearest
        self.source = source
        self.events = events
        self.filterNames = filterNames
        self.activeFilter = activeFilter
        self.calibration = calibration
    }
}
