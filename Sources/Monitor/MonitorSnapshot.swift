import BeaconFormats

/// The nearest exhibit, shown in a panel while the visitor is near or immediate (issue 5 item 3).
public struct NearestExhibit: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var name: String
    /// One or two sentences from the catalog.
    public var description: String
    public var proximity: ProximityClass

    public init(identity: BeaconIdentity, name: String, description: String, proximity: ProximityClass) {
        self.identity = identity
        self.name = name
        self.description = description
        self.proximity = proximity
    }

    /// The panel is shown only while the visitor is close; farther away it is dismissed.
    public var showsPanel: Bool { proximity == .immediate || proximity == .near }
}

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

/// The calibration wizard's progress (`c`): the adapter collects RSSI at 1 m for the beacon named in
/// `MonitorCommand.startCalibration` and reports here; the monitor only draws it.
public struct CalibrationProgress: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// Exhibit name or short id, for the heading.
    public var name: String
    public var samplesCollected: Int
    public var samplesNeeded: Int
    /// Mean RSSI so far (dBm): the measured power that would be saved.
    public var measuredPower: Double?
    /// Standard deviation of the samples (dB): a large spread means a poor calibration.
    public var spread: Double?
    /// Set once the override was written (the catalog file path).
    public var savedTo: String?

    public init(
        identity: BeaconIdentity, name: String, samplesCollected: Int, samplesNeeded: Int,
        measuredPower: Double? = nil, spread: Double? = nil, savedTo: String? = nil
    ) {
        self.identity = identity
        self.name = name
        self.samplesCollected = samplesCollected
        self.samplesNeeded = samplesNeeded
        self.measuredPower = measuredPower
        self.spread = spread
        self.savedTo = savedTo
    }

    public var isComplete: Bool { samplesCollected >= samplesNeeded }
}

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

    public init(
        title: String? = nil, rows: [BeaconRowModel] = [], nearest: NearestExhibit? = nil,
        source: SourceStatus, events: [MonitorEvent] = [], filterNames: [String] = [],
        activeFilter: String? = nil, calibration: CalibrationProgress? = nil
    ) {
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
