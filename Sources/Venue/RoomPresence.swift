import Ranging

/// A beacon moving from one room to another (or into the venue, or out of it), decided at `time`.
/// The visit it ends and the visit it starts are bounded by readings, not by the decision
/// (docs/venue.md "Visit times"): presence decides seconds after the first reading that placed the
/// beacon, and an exit is decided when the last reading has expired.
public struct PresenceChange: Sendable, Equatable {
    public var beacon: String
    public var from: String?
    public var to: String?
    /// When presence decided.
    public var time: Double
    /// The last reading of the beacon in `from` at or above the floor (`time` when there is no `from`).
    public var lastHeardInFrom: Double
    /// The first reading in `to` of the unbroken run the decision rests on, never before
    /// `lastHeardInFrom` or the beacon's previous visit's end (`time` when there is no `to`).
    public var firstHeardInTo: Double

    public init(beacon: String, from: String?, to: String?, time: Double, lastHeardInFrom: Double? = nil, firstHeardInTo: Double? = nil) {
        self.beacon = beacon
        self.from = from
        self.to = to
        self.time = time
        self.lastHeardInFrom = lastHeardInFrom ?? time
        self.firstHeardInTo = firstHeardInTo ?? time
    }
}

/// Which room each beacon is in, decided on relative evidence across scanners. Pure: readings
/// and time go in, changes come out; the owner loop calls `ingest` per message and `tick` about
/// once a second.
///
/// The rule (docs/venue.md "The presence rule"): a reading's *level* is its RSSI plus the
/// scanner's offset minus the beacon's power at 1 m (so scanners that read differently and beacons
/// of different power compare); a room's level is the best level among its scanners' readings of
/// the last `readingLifetime` seconds, from scanners still alive. A beacon is in no room until a
/// room's lead over the floor piles up, and moves when a challenger room's lead over the holder,
/// beyond `hysteresis`, piles up to `evidenceThreshold` dB·s (a one-sided CUSUM, as
/// `NearestExhibitSelector` does for exhibits; the lead clipped to `leadClip`) and the holder has
/// held `minimumHold` seconds. A lead is credited for the time it stood, from one evaluation to
/// the next, so one loud reading counts for as long as it was the latest, not more.
/// When no live scanner has a reading of the beacon, it is in no room: a dead scanner's readings
/// expire with it, so it never keeps a beacon present.
public struct RoomPresence: Sendable {
    public let settings: PresenceSettings
    public private(set) var scanners: ScannerRegistry
    private var beacons: [String: BeaconState] = [:]
    /// `beacons`' keys in order, kept as beacons come and go: every tick and every venue line
    /// walked them sorted, and sorting a hundred ids twice a second was 6% of a replay.
    private var sortedKeys: [String] = []

    /// One scanner's latest reading of a beacon, as the detail pane shows it.
    public struct ScannerLevel: Sendable, Equatable {
        public var scanner: String
        public var room: String
        public var rssi: Double
        /// dB relative to the beacon's power at 1 m, the scanner's offset applied.
        public var level: Double
        public var distance: Double?
        public var time: Double
        /// The first reading of this scanner's unbroken run at or above the floor (no gap longer
        /// than the readings' lifetime): where a visit decided on this run starts.
        public var heardSince: Double
    }

    /// Per beacon. Readings are a small array (one per scanner that hears the beacon, a handful to
    /// twenty), searched linearly: cheaper than hashing a scanner name per reading.
    private struct BeaconState {
        var readings: [ScannerLevel] = []
        var holder: String?
        var challenger: String?
        var evidence = 0.0
        /// The challenger's lead (dB beyond the hysteresis, clipped) as of the last evaluation.
        var standingLead = 0.0
        var heldSince = 0.0
        /// The newest reading of the holder's room at or above the floor: where its visit ends.
        var holderLastHeard = 0.0
        /// Where the beacon's last visit ended: the next one starts no earlier.
        var lastVisitEnd: Double?
        var lastEvaluation: Double?
    }

    public init(catalog: ExhibitCatalog? = nil, settings: PresenceSettings = PresenceSettings()) {
        self.settings = settings
        scanners = ScannerRegistry(catalog: catalog, settings: settings)
    }

    /// Feeds one decoded message; returns the changes it caused.
    public mutating func ingest(_ input: VenueInput) -> [PresenceChange] {
        switch input {
        case .reading(let reading):
            return ingest(reading).map { [$0] } ?? []
        case .scannerStatus(let scanner, let online, let time):
            guard scanners.setStatus(scanner, online: online, at: time) else { return [] }
            return online ? [] : tick(at: time)
        case .telemetry(let telemetry):
            guard scanners.heard(telemetry.scanner, at: telemetry.time) else { return [] }
            scanners.noteRadio(telemetry.scanner, telemetry.radio)
            return []
        case .scannerRetired(let scanner, let time):
            // Its readings drop out now, as an offline scanner's do: whoever it alone placed leaves.
            scanners.retire(scanner)
            return tick(at: time)
        case .telemetryCleared(let scanner):
            scanners.forgetRadio(scanner)
            return []
        }
    }

    public mutating func ingest(_ reading: ScannerReading) -> PresenceChange? {
        guard scanners.heard(reading.scanner, at: reading.time) else { return nil }
        if let sentAt = reading.sentAt { scanners.noteClock(reading.scanner, offset: reading.time - sentAt) }
        if scanners.isReference(reading.beacon) {
            scanners.learn(from: reading)
            return nil
        }
        let power = reading.measuredPower ?? settings.defaultMeasuredPower
        // `room(of:)` and `offset(of:)` in one look-up, and the beacon's state in one: hashing
        // names was a tenth of a venue replay.
        let scanner = scanners.scanners[reading.scanner]
        let level = ScannerLevel(
            scanner: reading.scanner, room: scanner?.room ?? reading.scanner, rssi: reading.rssi,
            level: reading.rssi + (scanner?.offset ?? 0) - power, distance: reading.distance, time: reading.time,
            heardSince: reading.time
        )
        let known = beacons.count
        let change = Self.evaluate(&beacons[reading.beacon, default: BeaconState()], beacon: reading.beacon, adding: level, at: reading.time,
                                   scanners: scanners, settings: settings)
        if beacons.count != known { insertSorted(reading.beacon) }
        return change
    }

    private mutating func insertSorted(_ key: String) {
        var low = 0
        var high = sortedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        sortedKeys.insert(key, at: low)
    }

    /// Re-decides every beacon at `time`: readings expire, dead scanners drop out, evidence that
    /// was piling up without new readings completes. Beacons in no room with no readings are forgotten.
    public mutating func tick(at time: Double) -> [PresenceChange] {
        var changes: [PresenceChange] = []
        var kept: [String] = []
        kept.reserveCapacity(sortedKeys.count)
        for beacon in sortedKeys {
            if let change = Self.evaluate(&beacons[beacon]!, beacon: beacon, adding: nil, at: time, scanners: scanners, settings: settings) {
                changes.append(change)
            }
            if let state = beacons[beacon], state.holder == nil, state.readings.isEmpty {
                beacons[beacon] = nil
            } else {
                kept.append(beacon)
            }
        }
        sortedKeys = kept
        return changes
    }

    public func room(of beacon: String) -> String? { beacons[beacon]?.holder }

    /// The newest reading of `beacon` by a scanner of `room` at or above the floor, for the room
    /// presence holds it in (nil otherwise). A visit closed at the end of a session ends here, not
    /// when the session stopped.
    public func lastHeard(_ beacon: String, in room: String) -> Double? {
        guard let state = beacons[beacon], state.holder == room else { return nil }
        return state.holderLastHeard
    }

    /// A room piling up evidence against the beacon's room (to place it at all, while it has none):
    /// what presence knows beyond the readings, for the device detail's "why this room".
    public struct Challenge: Sendable, Equatable {
        public var room: String
        /// dB·s beyond the hysteresis so far, as of the last evaluation (readings and ticks).
        public var evidence: Double
        /// What moves it: `PresenceSettings.evidenceThreshold`.
        public var threshold: Double
    }

    /// The room challenging the beacon's, and how far its evidence has come; nil when none gains
    /// (the strongest other room is always the challenger, but one behind by the hysteresis or
    /// more, with no evidence, is gaining nothing).
    public func challenge(of beacon: String) -> Challenge? {
        guard let state = beacons[beacon], let room = state.challenger, state.evidence > 0 || state.standingLead > 0 else { return nil }
        return Challenge(room: room, evidence: state.evidence, threshold: settings.evidenceThreshold)
    }

    /// Every beacon with a live reading or a room, sorted.
    public var beaconKeys: [String] { sortedKeys }

    /// Every beacon in a room, and the room.
    public var present: [String: String] {
        var result: [String: String] = [:]
        for (beacon, state) in beacons { if let room = state.holder { result[beacon] = room } }
        return result
    }

    /// The beacon's current readings from every scanner, strongest level first.
    public func levels(of beacon: String) -> [ScannerLevel] {
        (beacons[beacon]?.readings ?? []).sorted { ($0.level, $1.scanner) > ($1.level, $0.scanner) }
    }

    /// Credits the standing lead for the time since the last evaluation, takes in `new` (a
    /// reading, or nil on a tick), drops expired readings and dead scanners, and decides.
    private static func evaluate(
        _ state: inout BeaconState, beacon: String, adding new: ScannerLevel?, at time: Double,
        scanners: ScannerRegistry, settings: PresenceSettings
    ) -> PresenceChange? {
        let elapsed = state.lastEvaluation.map { min(max(time - $0, 0), 5) } ?? 0
        state.lastEvaluation = time
        if state.challenger != nil { state.evidence = max(0, state.evidence + state.standingLead * elapsed) }
        if var new {
            if let index = state.readings.firstIndex(where: { $0.scanner == new.scanner }) {
                let old = state.readings[index]
                if old.level >= settings.floorLevel, new.level >= settings.floorLevel, new.time - old.time <= settings.readingLifetime {
                    new.heardSince = old.heardSince
                }
                state.readings[index] = new
            } else {
                state.readings.append(new)
            }
        }
        // Before expiry takes them: the holder's newest reading is where its visit ends.
        if let holder = state.holder {
            for reading in state.readings where reading.room == holder && reading.level >= settings.floorLevel {
                state.holderLastHeard = max(state.holderLastHeard, reading.time)
            }
        }
        state.readings.removeAll { time - $0.time > settings.readingLifetime || !scanners.isAlive($0.scanner, at: time) }
        var rooms: [(room: String, level: Double)] = []
        for reading in state.readings where reading.level >= settings.floorLevel {
            if let index = rooms.firstIndex(where: { $0.room == reading.room }) {
                rooms[index].level = max(rooms[index].level, reading.level)
            } else {
                rooms.append((reading.room, reading.level))
            }
        }
        let previous = state.holder
        let held = previous.flatMap { holder in rooms.first { $0.room == holder }?.level }
        // No live reading from the holder's room: nothing says the beacon is still there, so it
        // leaves at once (a dead scanner keeps nobody) and has to enter another room on evidence.
        if let holder = previous, held == nil {
            state.holder = nil
            state.challenger = nil
            state.evidence = 0
            state.standingLead = 0
            state.lastVisitEnd = state.holderLastHeard
            return PresenceChange(beacon: beacon, from: holder, to: nil, time: time, lastHeardInFrom: state.holderLastHeard)
        }
        var strongest: (room: String, level: Double)?
        for candidate in rooms where candidate.room != previous {
            if let best = strongest, candidate.level < best.level || candidate.level == best.level && candidate.room > best.room { continue }
            strongest = candidate
        }
        guard let rival = strongest else {
            state.challenger = nil
            state.evidence = 0
            return nil
        }
        // With nobody holding, the evidence is that the beacon is here at all: it carries over
        // when the lead passes from one room to another. Against a holder it restarts.
        if state.challenger != rival.room {
            if previous != nil, state.challenger != nil { state.evidence = 0 }
            state.challenger = rival.room
        }
        state.standingLead = min(rival.level - (held ?? settings.floorLevel) - settings.hysteresis, settings.leadClip)
        guard state.evidence >= settings.evidenceThreshold, previous == nil || time - state.heldSince >= settings.minimumHold else {
            return nil
        }
        let left = previous.map { _ in state.holderLastHeard }
        // The room's unbroken run of readings is what the evidence piled up from; on a move the
        // old room's last reading bounds it, so one beacon's visits never overlap.
        var started = time
        var newest = -Double.infinity
        for reading in state.readings where reading.room == rival.room && reading.level >= settings.floorLevel {
            started = min(started, reading.heardSince)
            newest = max(newest, reading.time)
        }
        if let end = left ?? state.lastVisitEnd { started = min(max(started, end), time) }
        state.lastVisitEnd = left ?? state.lastVisitEnd
        state.holder = rival.room
        state.heldSince = time
        state.holderLastHeard = max(started, newest)
        state.challenger = nil
        state.evidence = 0
        state.standingLead = 0
        return PresenceChange(beacon: beacon, from: previous, to: rival.room, time: time, lastHeardInFrom: left, firstHeardInTo: started)
    }
}
