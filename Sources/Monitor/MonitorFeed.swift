import BeaconFormats
import HCI
import Ranging
import PacketSources
import Survey
import Venue

/// The monitor's data side: HCI packets, sightings and source news in, `MonitorSnapshot`s out. The
/// adapter between the ranging layer (`RangingEngine`, `RangingSnapshot`) and the monitor's input
/// types.
///
/// A value owned by the monitor's one loop (through `MonitorSession`). Pure like the engine: time
/// comes from the packets and from the `snapshot(at:)` argument, so a test drives it with a capture
/// and no clock. Its memory follows the engine's: the detail pane's extras exist only for beacons
/// the engine tracks (at most `RangingConfiguration.maxBeacons`), and leave when it evicts them.
public struct MonitorFeed: Sendable {
    /// The event log keeps this many lines (the log screen shows the newest that fit).
    public static let eventLimit = 500

    public private(set) var configuration: RangingConfiguration
    public private(set) var catalog: ExhibitCatalog?
    public private(set) var engine: RangingEngine
    /// Status line fields the wiring owns (name, state, recording file, replay position); the feed
    /// fills in adverts/s and the malformed count.
    public var status: SourceStatus
    public internal(set) var events: [MonitorEvent] = []
    public private(set) var calibration: CalibrationRun?
    public private(set) var malformedPackets = 0
    public internal(set) var advertisements = 0
    /// Packets the source's inbox dropped because the loop fell behind (set by the session).
    public var droppedPackets = 0
    /// Beacons the engine evicted to stay within its cap (more distinct beacons than it tracks).
    public private(set) var evictedBeacons = 0
    /// Capture time of the newest packet, nil before the first.
    public internal(set) var lastPacketTime: Double?
    /// The ranging tick the last snapshot was built from (the session exports it, `--export`).
    public private(set) var lastRanging: RangingSnapshot?
    /// A venue's broker (issue 11): its messages feed this view, whose beacons are the rows.
    public internal(set) var venue: VenueView?
    /// The venue view as it started, for a seek back to rebuild from (a venue recording's replay).
    var venueStart: VenueView?
    /// The venue view's last tick (a snapshot's or a message's whole second).
    var venueTicked: Double?
    /// What the venue view decided to publish (visit events, occupancy), taken by the session.
    var venueOutbox: [VenueOutgoing] = []
    /// Each scanner's liveness as last shown, so a change is one event-log line.
    var scannerAlive: [String: Bool] = [:]
    /// Each scanner's radio as last shown (its telemetry's `radio`), likewise.
    var scannerRadio: [String: ScannerTelemetry.RadioState] = [:]
    /// A seek back rebuilt the venue view since the last snapshot: the next takes its scanners as
    /// they are, unlogged (`venueSnapshot`).
    var venueRewound = false
    /// What the log has said of the venue's limit on scanners not in the catalog.
    var scannerLimitLog = ScannerLimitLog()
    /// Per scanner: the window start (time, messages) and the last rate, for the `n` list.
    var scannerRates: [String: (time: Double, messages: Int, rate: Double?)] = [:]
    /// Per venue beacon: the placing scanner's RSSI once a second of the view's clock (the
    /// sparkline), as `BeaconExtras` keeps it for a radio's beacons.
    var venueHistory: [String: (second: Double, rssi: [Int])] = [:]
    /// The venue view at each checkpoint a venue recording's replay passed (`SourceNotice.checkpoint`).
    var venueCheckpoints: [Int: VenueCheckpoint] = [:]

    /// The event log's last reconnect line (its message) and why that attempt was made (the
    /// source and the previous failure), for the next attempt to replace it.
    var reconnectLine: (why: String, message: String)?

    private var decoder = BeaconSightingDecoder()
    /// The sightings of the packet being fed, reused (one array per packet was an allocation per packet).
    private var pending: [(BeaconSighting, ArraySlice<UInt8>)] = []
    private var extras: [BeaconIdentity: BeaconExtras] = [:]
    var startTime: Double?
    /// A replay's position (`status.replayPosition`) at the last tick and that tick's capture time:
    /// the event log shows a replay's events at the position the status line showed.
    var positionAnchor: (capture: Double, position: Double)?
    private var lastNearest: BeaconIdentity?
    var rateWindow: (time: Double, advertisements: Int)?
    var advertsPerSecond = 0.0
    var lastTickTime: Double?
    /// Beacon health and duplicates (the health view, row marks, the detail pane's health lines).
    public private(set) var watch: BeaconWatch
    /// The watch's report, taken every `healthRefreshInterval` of capture time or when an address
    /// event happened: a report estimates every transmitter's interval (13 µs each at 64 events,
    /// docs/survey.md "Cost"), too much to take at every tick for a thousand beacons.
    private var health = BeaconConditions()
    private var healthDue = true
    /// Seconds of capture time between health reports.
    public static let healthRefreshInterval = 2.0

    public init(configuration: RangingConfiguration = RangingConfiguration(), catalog: ExhibitCatalog? = nil, status: SourceStatus) {
        self.configuration = configuration
        self.catalog = catalog
        self.status = status
        engine = RangingEngine(configuration: configuration, catalog: catalog)
        watch = BeaconWatch(catalog: catalog)
    }

    // MARK: - Input

    /// Feeds one HCI packet from any source: decoded (the one sighting decoder), ranged,
    /// remembered for the detail pane.
    public mutating func feed(_ packet: HCIPacket) {
        guard packet.timestamp.isFinite else { return }
        note(time: packet.timestamp)
        var sightings = pending
        pending = []
        defer {
            sightings.removeAll(keepingCapacity: true)
            pending = sightings
        }
        do {
            advertisements += try decoder.decode(packet, withData: { sightings.append(($0, $1)) })
        } catch {
            malformedPackets += 1
            return
        }
        for (sighting, data) in sightings { feed(sighting, advertisingData: data) }
    }

    /// Feeds a sighting a remote scanner decoded (issue 11's venue: it arrives without a packet).
    /// `scanner` is kept for the venue view; today every scanner's sightings range together.
    public mutating func feed(_ sighting: BeaconSighting, scanner: String) {
        advertisements += 1
        feed(sighting, advertisingData: [])
    }

    /// Feeds one decoded sighting; `advertisingData` is what the detail pane's hex dump shows.
    public mutating func feed(_ sighting: BeaconSighting, advertisingData: ArraySlice<UInt8>) {
        // Health takes every sighting, telemetry included; ranging only what it can range.
        for event in watch.observe(sighting) { log(event) }
        guard sighting.isRangeable, let rssi = sighting.rssi, sighting.timestamp.isFinite else { return }
        note(time: sighting.timestamp)
        // The engine's cap and eviction decide which beacons have extras too.
        if let evicted = engine.recordEvicting(sighting) {
            extras[evicted] = nil
            evictedBeacons += 1
        }
        let identity = sighting.identity
        extras[identity, default: BeaconExtras(identity: identity)].record(rssi: Int(rssi), at: sighting.timestamp, raw: advertisingData)
        if calibration?.identity == identity { calibration?.add(rssi: Int(rssi)) }
    }

    /// Beacons with detail-pane extras (the filters side by side, the history): never more than the
    /// engine tracks, except those kept across a filter change until the next tick.
    public var beaconsWithExtras: Int { extras.count }

    /// Source news: a lost transport is a line in the log and a state in the status line, not a crash.
    public mutating func note(_ news: SourceNotice) {
        switch news {
        case .connected:
            if case .lost = status.state { status.state = .scanning }
            if case .reconnecting = status.state { status.state = .scanning }
            if case .notScanning = status.state { status.state = .scanning }
            log(.info, news.description)
        case .lost(_, let reason):
            status.state = .lost(reason: reason)
            log(.warning, news.description)
        case .reconnecting(let source, let attempt, _, let reason):
            status.state = .reconnecting(attempt: attempt)
            // A controller away for a night is tried every second (`LiveSource.reconnects`): the
            // attempts failing for one reason are one line, the newest, unless something came between.
            let why = "\(source): \(reason)"
            if let line = reconnectLine, line.why == why, events.last?.message == line.message { events.removeLast() }
            log(.warning, news.description)
            reconnectLine = (why, news.description)
        case .framingError, .warning:
            log(.warning, news.description)
        case .restartFailed(_, let message, let retryIn):
            status.state = .notScanning(reason: message, retryIn: retryIn)
            log(.warning, news.description)
        case .restarted:
            if case .notScanning = status.state { status.state = .scanning }
            log(.info, news.description)
        case .poweredOn:
            log(.info, news.description)
        case .recordingStarted(let path):
            status.recordingFile = path
            log(.info, news.description)
        case .recordingStopped:
            status.recordingFile = nil
            log(.info, news.description)
        case .recordingFailed(_, let reason):
            status.recordingFile = nil
            log(.warning, "recording stopped: \(reason)")
        case .rewound(let source, let target, let checkpoint):
            if let checkpoint {
                if !restoreVenue(checkpoint.id, at: target) {
                    // Not expected: a checkpoint's notice comes before any seek that resumes from it.
                    rewindVenue(to: target)
                    log(.warning, "\(source): checkpoint \(checkpoint.id) was not kept: the venue view lacks what came before \(SourceNotice.seconds(checkpoint.seconds)) s")
                }
            } else {
                rewindVenue(to: target)
            }
            log(.info, news.description, at: target)
        case .sought(_, let position, let capture):
            // Not logged (the status line shows the position); events until the next tick are
            // placed from here, not from the tick before the seek.
            positionAnchor = (capture, position)
        case .checkpoint(_, let id, let dropped):
            keepVenueCheckpoint(id, dropping: dropped)
        case .pastTheEnd(_, let from, let last):
            // --from as given, as the log's line says it: to a tenth, `--from 210.77` read `210.7`.
            status.state = .nothingReplayed(reason: "--from \(SourceNotice.exactSeconds(from)) s is past the end (0-\(SourceNotice.seconds(last)) s)")
            log(.warning, news.description)
        case .unreadable:
            // The `.ended` right after it says why the replay stopped.
            break
        case .ended(_, let reason):
            // A `--loop` replay reports each pass as "looping (n)" and goes on.
            if !reason.hasPrefix("looping") { status.state = .finished }
            log(.info, news.description)
        case .resumedFromEnd:
            // Playing again: the session's next snapshot says at what speed, or paused.
            status.state = .replaying(speed: 1)
            log(.info, news.description)
        case .nothingFurther:
            log(.info, news.description)
        }
    }

    /// A `duplicate` (a warning) or `address-rotated` (merged, news only) event in the log.
    private mutating func log(_ event: AddressEvent) {
        healthDue = true
        switch event {
        case .duplicate(let finding):
            log(.warning, finding.description)
        case .rotated(let identity, let from, let to, _):
            log(.info, "address-rotated: \(from) -> \(to) sends \(identity) (one transmitter, merged)")
        }
    }

    /// Adds a line to the event log (source and wiring messages: "recording to ..."), at the
    /// source's time `at` (a venue event's decision) or else at the last tick's.
    public mutating func log(_ kind: MonitorEvent.Kind, _ message: String, at source: Double? = nil) {
        let now = source ?? lastTickTime ?? lastPacketTime ?? 0
        let time = now - (startTime ?? lastTickTime ?? lastPacketTime ?? now)
        let position = positionAnchor.map { max(0, $0.position + now - $0.capture) } ?? status.replayPosition
        insert(MonitorEvent(time: max(0, time), kind: kind, message: message, position: position), inTimeOrder: source != nil)
    }

    /// Adds a line to the log, `inTimeOrder` after the last line not later than it (else last),
    /// keeping the newest `eventLimit`.
    mutating func insert(_ event: MonitorEvent, inTimeOrder: Bool) {
        if inTimeOrder, let last = events.last, event.time < last.time {
            // A venue event decided before the last line (a seek back's rebuild): in time order.
            events.insert(event, at: events.lastIndex { $0.time <= event.time }.map { $0 + 1 } ?? 0)
        } else {
            events.append(event)
        }
        if events.count > Self.eventLimit { events.removeFirst(events.count - Self.eventLimit) }
    }

    // MARK: - Commands

    /// Switches the ranging filter (`f`, `--filter`). Each beacon's filter starts afresh and refills
    /// within a few packets; the engine's other state (regions, nearest, visits), the history and
    /// the side-by-side estimates go on (`RangingEngine.selectFilter`).
    public mutating func selectFilter(named name: String) throws(RangingConfigurationError) {
        let kind = try RSSIFilterKind(name: name)
        configuration.filter = kind
        engine.selectFilter(kind)
        log(.info, "filter: \(kind.rawValue)")
    }

    /// Uses a new catalog (after the calibration wizard saved an override into it). The engine keeps
    /// its beacons, visits and regions (`RangingEngine.replaceCatalog`): a calibration is no visit's end.
    public mutating func replaceCatalog(_ catalog: ExhibitCatalog?) {
        self.catalog = catalog
        engine.replaceCatalog(catalog)
        watch.replaceCatalog(catalog)
        healthDue = true
    }

    public mutating func startCalibration(of identity: BeaconIdentity) {
        let name = catalog?.exhibit(forID: identity.description)?.name ?? identity.shortDescription
        calibration = CalibrationRun(identity: identity, name: name)
    }

    public mutating func cancelCalibration() { calibration = nil }

    /// Marks the wizard's run as saved (the wiring wrote the file).
    public mutating func calibrationSaved(to path: String, measuredPower: Int) {
        calibration?.savedTo = path
        calibration?.saveFailure = nil
        log(.info, "calibration: measuredPower \(measuredPower) saved to \(path)")
    }

    /// The save failed: the wizard says so where the technician is looking (Enter tries again),
    /// and the log keeps it.
    public mutating func calibrationNotSaved(to path: String, reason: String) {
        calibration?.saveFailure = "not saved to \(path): \(reason)"
        log(.warning, "calibration not saved to \(path): \(reason)")
    }

    // MARK: - Output

    /// Ticks the engine at `time` (capture time: the newest packet's, moved on by the wiring's
    /// clock between packets) and builds the monitor's snapshot.
    public mutating func snapshot(at requested: Double) -> MonitorSnapshot {
        var source = status
        source.malformedCount = malformedPackets
        source.droppedPackets = droppedPackets
        source.evictedBeacons = evictedBeacons
        // Before the first packet there is no capture time to tick at: status and log only.
        guard lastPacketTime != nil, requested.isFinite else {
            return MonitorSnapshot(
                title: catalog?.title, source: source, events: events,
                filterNames: RSSIFilterKind.allCases.map(\.rawValue), activeFilter: configuration.filter.rawValue,
                calibration: calibration?.progress
            )
        }
        let time = max(requested, lastTickTime ?? requested)
        if startTime == nil { startTime = time }
        if let position = status.replayPosition { positionAnchor = (time, position) }
        if venue != nil { return venueSnapshot(at: time, source: source) }
        let ranging = engine.tick(at: time)
        lastRanging = ranging
        lastTickTime = time
        updateRate(at: time)
        for event in ranging.events {
            log(event.kind == .enter ? .enter : .exit, catalog?.logName(for: event.region) ?? event.region.identifier)
        }
        if ranging.nearest != lastNearest {
            lastNearest = ranging.nearest
            if let nearest = ranging.nearestReading {
                log(.info, "nearest: \(nearest.exhibit?.name ?? nearest.identity.shortDescription)")
            }
        }

        var rows: [BeaconRowModel] = []
        rows.reserveCapacity(ranging.beacons.count)
        var kept: [BeaconIdentity: BeaconExtras] = [:]
        kept.reserveCapacity(ranging.beacons.count)
        for reading in ranging.beacons {
            var extra = extras[reading.identity] ?? BeaconExtras(identity: reading.identity)
            extra.sample(reading, at: time, model: configuration.distanceModel)
            kept[reading.identity] = extra
            rows.append(Self.row(reading, extra, at: time))
        }
        // Beacons the engine forgot leave the detail data too (bounded memory).
        extras = kept
        if healthDue || !(time - health.time < Self.healthRefreshInterval) {
            health = watch.conditions(at: time)
            healthDue = false
        }

        var nearest: NearestExhibit?
        if let reading = ranging.nearestReading {
            nearest = NearestExhibit(
                identity: reading.identity, name: reading.exhibit?.name ?? reading.identity.shortDescription,
                description: reading.exhibit?.description ?? "", proximity: ProximityClass(reading.proximity)
            )
        }
        source.advertsPerSecond = shownRate
        return MonitorSnapshot(
            title: catalog?.title, rows: rows, nearest: nearest, source: source, events: events,
            filterNames: RSSIFilterKind.allCases.map(\.rawValue), activeFilter: configuration.filter.rawValue,
            calibration: calibration?.progress, health: health
        )
    }

    static func row(_ reading: BeaconReading, _ extra: BeaconExtras, at time: Double) -> BeaconRowModel {
        BeaconRowModel(
            identity: reading.identity, exhibitName: reading.exhibit?.givenName, rssi: reading.rssi,
            rssiHistory: extra.rssiHistory, accuracy: reading.accuracy >= 0 ? reading.accuracy : nil,
            accuracyRange: reading.accuracyRange, rangeProbability: reading.rangeProbability, accuracyHistory: extra.accuracyHistory,
            proximity: ProximityClass(reading.proximity), measuredPower: Int(reading.measuredPower.dBm.rounded()),
            packetsPerSecond: time - reading.firstSeen >= 1 ? reading.packetsPerSecond : nil,
            secondsSinceSeen: max(0, time - reading.lastSeen),
            isStale: reading.isStale, lastRawFrame: extra.lastRawFrame, filterEstimates: extra.estimates,
            shortName: extra.shortName
        )
    }

    mutating func note(time: Double) {
        guard time.isFinite else { return }
        lastPacketTime = max(lastPacketTime ?? time, time)
    }

    /// The rate the status line shows: 0 once a replay is over. Held at its end the replay's clock
    /// stops, so no second passes to measure again and the last pass's rate stayed on the line.
    var shownRate: Double { status.state.isOver ? 0 : advertsPerSecond }

    /// Advertisements per second over at least one second of capture time.
    mutating func updateRate(at time: Double) {
        guard let window = rateWindow else {
            rateWindow = (time, advertisements)
            return
        }
        let elapsed = time - window.time
        guard elapsed >= 1 else { return }
        advertsPerSecond = Double(advertisements - window.advertisements) / elapsed
        rateWindow = (time, advertisements)
    }
}

extension Exhibit {
    /// The name the catalog gives it; nil for an entry without one (its `name` defaults to the
    /// id), which the table then shows by its short id, as an uncatalogued beacon: the whole id
    /// as a name was cut at its end, the same `8F3A2C61-5B7E-4D1…` on every row of one UUID.
    var givenName: String? { Exhibit.normalisedID(name) == id ? nil : name }
}

extension ProximityClass {
    /// Ranging's classes are CoreLocation's four, by name.
    public init(_ proximity: Proximity) {
        switch proximity {
        case .immediate: self = .immediate
        case .near: self = .near
        case .far: self = .far
        case .unknown: self = .unknown
        }
    }
}
