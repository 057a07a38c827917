import BeaconFormats
import PacketSources
import Ranging
import Venue

/// The monitor on a venue's broker (`monitor mqtt://BROKER`): broker messages go to the venue view
/// (`VenueView`, pure, time as data) instead of the ranging engine, and its beacons become the
/// table's rows, each once, with the room it is in, the scanner that places it there and the
/// runner-up. Same loop, same inbox, same snapshot: only the rows' source differs.
extension MonitorFeed {
    /// Makes this feed a venue's (before the first message).
    public mutating func startVenue(_ view: VenueView) {
        venue = view
        venueStart = view
    }

    /// A seek back on a venue recording (`SourceNotice.rewound`): the view starts again as it
    /// started, and the messages that follow (the recording from its start, unpaced up to
    /// `target`) rebuild it, so no visit is counted twice or left open. The event log loses its
    /// lines after `target` (they have not happened yet) and its enter and exit lines, which the
    /// rebuilt view writes again, each at the time it decided it; the clocks that never go back
    /// start over.
    mutating func rewindVenue(to target: Double) {
        guard let venueStart, target.isFinite else { return }
        venue = venueStart
        venueCheckpoints.removeAll()
        venueOutbox.removeAll()
        scannerRates.removeAll()
        venueHistory.removeAll()
        let since = startTime ?? target
        events.removeAll { $0.time > target - since || $0.kind == .enter || $0.kind == .exit }
        venueTicked = nil
        lastPacketTime = nil
        lastTickTime = nil
        rateWindow = nil
        venueRewound = true
    }

    /// One broker message, at the time it was received.
    public mutating func feed(_ message: BrokerMessage) {
        guard venue != nil, message.receivedAt.isFinite else { return }
        note(time: message.receivedAt)
        // The log counts from the first message (a paused replay may seek before any snapshot).
        if startTime == nil { startTime = message.receivedAt }
        advertisements += 1
        tickVenue(before: message.receivedAt)
        venueOutbox += venue!.receive(topic: message.topic, payload: message.payload, at: message.receivedAt, retained: message.retained)
    }

    /// Ticks the view at each whole second of message time since its last tick (after a silence
    /// of over `tickedSilence`, its first seconds and the last): a burst of messages (a seek's
    /// catch-up, `--speed max`) then expires readings and decides exits about when a steady play
    /// would have, not all at the next snapshot or the next message.
    private mutating func tickVenue(before time: Double) {
        guard let last = venueTicked else {
            venueTicked = time
            return
        }
        var next = last.rounded(.down) + 1
        var ticks = 0
        while next <= time {
            venueOutbox += venue!.tick(at: next)
            venueTicked = next
            ticks += 1
            next += 1
            if ticks == Self.tickedSilence, time - next > 1 { next = time.rounded(.down) }
        }
    }

    /// Seconds of a silence ticked one by one: past a reading's lifetime (4 s) and a scanner's
    /// silence (25 s), so exits and silent scanners are decided at their second.
    static let tickedSilence = 60

    /// Ends the venue session at `time`: every open visit closed (each exit at the last time its
    /// room heard the beacon: `VenueView.finish`), the exits in the event log, what to publish in
    /// the outbox. Returns how many visits it closed; nothing after it opens one again.
    public mutating func finishVenue(at time: Double) -> Int {
        guard venue != nil, !venue!.isFinished, time.isFinite else { return 0 }
        venueOutbox += venue!.tick(at: time)
        logVenueEvents()
        venueOutbox += venue!.finish(at: time)
        let closed = venue!.pendingEvents.filter { $0.kind == .visit }.count
        logVenueEvents()
        return closed
    }

    private mutating func logVenueEvents() {
        for event in venue!.takeEvents() where event.kind != .visit {
            let beacon = catalog?.logName(forBeacon: event.beacon) ?? event.beacon
            log(event.kind == .enter ? .enter : .exit, "\(beacon) \(event.kind == .enter ? "in" : "left") \(event.room)", at: event.decided ?? event.time)
        }
    }

    /// What the view decided to publish since the last call.
    public mutating func takeVenueOutbox() -> [VenueOutgoing] {
        defer { venueOutbox.removeAll(keepingCapacity: true) }
        return venueOutbox
    }

    /// The scanners as the venue view knows them (the `n` list), sorted by name.
    public func venueScanners(at time: Double) -> [ScannerState] {
        guard let venue else { return [] }
        let registry = venue.presence.scanners
        return registry.scanners.values.sorted { $0.name < $1.name }.map { scanner in
            ScannerState(
                name: scanner.name, room: scanner.room, alive: registry.isAlive(scanner.name, at: time), declaredOnline: scanner.online,
                secondsSinceHeard: scanner.lastHeard.map { max(0, time - $0) }, messages: scanner.messages,
                messagesPerSecond: scannerRates[scanner.name]?.rate, clockOffset: scanner.clockOffset,
                offset: scanner.offset, offsetSource: scanner.offsetSource.rawValue, radioLost: scanner.radio?.lostReason
            )
        }
    }

    mutating func venueSnapshot(at time: Double, source status: SourceStatus) -> MonitorSnapshot {
        venueOutbox += venue!.tick(at: time)
        venueTicked = max(venueTicked ?? time, time)
        lastTickTime = time
        updateRate(at: time)
        logVenueEvents()
        let registry = venue!.presence.scanners
        // After a seek back the log has lost its lines past the target, so what it says of the
        // scanners is as of there, as the rebuilt view is: the view's scanners are taken as they
        // are, unlogged. Before, one first heard after the target was logged "retired", one whose
        // silence or lost radio was past it "online" or nothing when its radio was lost again.
        let rebuilt = venueRewound
        venueRewound = false
        let limit = scannerLimitLog.update(registry, limit: venue!.presence.settings.unlistedScannerLimit, rebuilt: rebuilt)
        for name in scannerAlive.keys.sorted() where Self.isRetired(registry.scanners[name], counted: scannerRates[name]?.messages) {
            if !rebuilt, limit.goneAreRetired { log(.info, "scanner \(name) retired: its retained status was deleted") }
            scannerAlive[name] = nil
            scannerRadio[name] = nil
            scannerRates[name] = nil
        }
        for name in registry.scanners.keys.sorted() {
            let alive = registry.isAlive(name, at: time)
            if rebuilt {
                scannerAlive[name] = alive
                scannerRadio[name] = registry.scanners[name]?.radio
                continue
            }
            if scannerAlive[name] != alive {
                if alive || scannerAlive[name] != nil {
                    let why = registry.scanners[name]?.online == false ? "offline" : "silent"
                    log(alive ? .info : .warning, alive ? "scanner \(name) online" : "scanner \(name) \(why): its readings expire")
                }
                scannerAlive[name] = alive
            }
            let radio = registry.scanners[name]?.radio
            if let radio, scannerRadio[name] != radio {
                if case .lost(let reason) = radio {
                    log(.warning, "scanner \(name) radio lost (\(reason)): online, hearing nothing")
                } else if scannerRadio[name] != nil {
                    log(.info, "scanner \(name) radio back: hearing again")
                }
                scannerRadio[name] = radio
            }
        }
        // After the scanners' own lines: a view starting on a broker full of names logs each one
        // online, and the limit's line must not be pushed out of the log by them.
        for line in limit.lines { log(.warning, line) }
        var rows: [BeaconRowModel] = []
        var devices: [VenueDevice] = []
        let beacons = venue!.beacons
        recordVenueHistory(beacons, at: time)
        for beacon in beacons {
            guard let best = beacon.best else { continue }
            // An id that names no beacon is a device's (a phone's `irk:...`): no identity, no row.
            guard let identity = VenueBeaconKey.identity(beacon.id) else {
                devices.append(Self.venueDevice(beacon, best: best, at: time))
                continue
            }
            var row = Self.venueRow(beacon, best: best, identity: identity, exhibit: catalog?.exhibit(forID: beacon.id)?.givenName, at: time)
            row.rssiHistory = venueHistory[beacon.id]?.rssi ?? []
            rows.append(row)
        }
        for (name, scanner) in registry.scanners {
            // Messages per second over at least a second of the view's clock.
            if let window = scannerRates[name] {
                if time - window.time >= 1 {
                    scannerRates[name] = (time, scanner.messages, Double(scanner.messages - window.messages) / (time - window.time))
                }
            } else {
                scannerRates[name] = (time, scanner.messages, nil)
            }
        }
        var source = status
        source.malformedCount = venue!.refusedTotal
        source.advertsPerSecond = shownRate
        source.countsMessages = true
        return MonitorSnapshot(
            title: catalog?.title, rows: rows, source: source, events: events,
            filterNames: RSSIFilterKind.allCases.map(\.rawValue), activeFilter: configuration.filter.rawValue,
            scanners: venueScanners(at: time), devices: devices
        )
    }

    /// One sample a second per beacon: the RSSI of the scanner that places it (or hears it best,
    /// with no room yet) while it has a live reading; beacons presence forgot are dropped.
    private mutating func recordVenueHistory(_ beacons: [VenueBeacon], at time: Double) {
        guard time.isFinite else { return }
        let second = time.rounded(.down)
        if venueHistory.count > beacons.count {
            let known = Set(beacons.map(\.id))
            venueHistory = venueHistory.filter { known.contains($0.key) }
        }
        for beacon in beacons {
            guard let best = beacon.best else { continue }
            var entry = venueHistory[beacon.id] ?? (second: -.infinity, rssi: [])
            guard entry.second != second else { continue }
            entry.second = second
            entry.rssi.append(Int(best.rssi.rounded()))
            if entry.rssi.count > BeaconExtras.historyLength { entry.rssi.removeFirst(entry.rssi.count - BeaconExtras.historyLength) }
            venueHistory[beacon.id] = entry
        }
    }

    /// Whether a scanner was retired since the last snapshot, which counted `counted` messages of
    /// it: gone from the view, or its count back below that. A catalog's scanner stays listed, gone
    /// back to what the catalog declares (never heard, no messages): its msg/s went negative for a
    /// second and the log called it silent. One heard again since counts from one.
    static func isRetired(_ scanner: ScannerRegistry.Scanner?, counted: Int?) -> Bool {
        guard let scanner else { return true }
        return scanner.messages < (counted ?? 0)
    }

    static func venueCell(_ level: RoomPresence.ScannerLevel, at time: Double) -> VenuePlacement.ScannerCell {
        VenuePlacement.ScannerCell(
            scanner: level.scanner, room: level.room, rssi: level.rssi, level: level.level, distance: level.distance, age: max(0, time - level.time)
        )
    }

    /// A device with what its detail shows: the same placement a beacon's row carries, how long it
    /// has been in its room and the room challenging it.
    static func venueDevice(_ beacon: VenueBeacon, best: RoomPresence.ScannerLevel, at time: Double) -> VenueDevice {
        VenueDevice(
            id: beacon.id, room: beacon.room, reading: venueCell(best, at: time), placement: venuePlacement(beacon, best: best, at: time),
            inRoomFor: beacon.inRoomSince.map { max(0, time - $0) },
            challenge: beacon.challenge.map { VenueDevice.Challenge(room: $0.room, evidence: $0.evidence, threshold: $0.threshold) }
        )
    }

    static func venueRow(_ beacon: VenueBeacon, best: RoomPresence.ScannerLevel, identity: BeaconIdentity, exhibit: String?, at time: Double) -> BeaconRowModel {
        var row = BeaconRowModel(
            identity: identity, exhibitName: exhibit, rssi: Int(best.rssi.rounded()), accuracy: best.distance,
            proximity: best.distance.map(Self.proximity) ?? .unknown, packetsPerSecond: nil,
            secondsSinceSeen: max(0, time - best.time), isStale: beacon.room == nil
        )
        row.venue = venuePlacement(beacon, best: best, at: time)
        return row
    }

    static func venuePlacement(_ beacon: VenueBeacon, best: RoomPresence.ScannerLevel, at time: Double) -> VenuePlacement {
        func cell(_ level: RoomPresence.ScannerLevel) -> VenuePlacement.ScannerCell { venueCell(level, at: time) }
        return VenuePlacement(room: beacon.room, scanner: best.scanner, runnerUp: beacon.runnerUp.map(cell), scanners: beacon.readings.map(cell))
    }

    /// CoreLocation's classes by distance alone (a scanner's message carries no class).
    static func proximity(_ distance: Double) -> ProximityClass {
        distance < 0.5 ? .immediate : distance < 3 ? .near : .far
    }
}

/// One scanner in the monitor's scanner list (key `n`).
public struct ScannerState: Sendable, Equatable {
    public var name: String
    public var room: String
    /// Heard within its silence limit and not declared offline.
    public var alive: Bool
    /// Its last status message (nil: it never sent one, as some ESPresense nodes do not).
    public var declaredOnline: Bool?
    public var secondsSinceHeard: Double?
    public var messages: Int
    /// Over the last second or more; nil before a second of history.
    public var messagesPerSecond: Double?
    /// Receive time minus the scanner's own time (beacontop agents): clock offset plus delay.
    public var clockOffset: Double?
    public var offset: Double
    public var offsetSource: String
    /// Why its radio is lost, while its telemetry says so (a beacontop agent online but deaf).
    public var radioLost: String?

    public init(name: String, room: String, alive: Bool, declaredOnline: Bool?, secondsSinceHeard: Double?, messages: Int,
                messagesPerSecond: Double? = nil, clockOffset: Double? = nil, offset: Double, offsetSource: String, radioLost: String? = nil) {
        self.radioLost = radioLost
        self.messagesPerSecond = messagesPerSecond
        self.clockOffset = clockOffset
        self.name = name
        self.room = room
        self.alive = alive
        self.declaredOnline = declaredOnline
        self.secondsSinceHeard = secondsSinceHeard
        self.messages = messages
        self.offset = offset
        self.offsetSource = offsetSource
    }
}

extension ScannerState {
    /// Whether it hears beacons: alive and its telemetry not saying its radio is gone.
    public var hears: Bool { alive && radioLost == nil }

    /// Its state as the list shows it: `online`; `no radio` when online but its telemetry says its
    /// controller is gone; `offline` when it said so or its will did; `silent` when it just stopped.
    public var stateText: String {
        alive ? (hears ? "online" : "no radio") : declaredOnline == false ? "offline" : "silent"
    }

    /// `/` on the scanner list: `needle` (lowercased, trimmed) is in its name, its room or its
    /// state, in any case: what the list shows to tell scanners apart (`/booth-1`, `/silent`).
    func matches(_ needle: String) -> Bool {
        name.lowercased().contains(needle) || room.lowercased().contains(needle) || stateText.contains(needle)
    }
}
