import Ranging

/// Every scanner the venue view has heard of: the room it covers, whether it is alive, and how
/// its receiver reads compared with the others (its RSSI offset). Pure: time is an argument.
public struct ScannerRegistry: Sendable {
    public enum OffsetSource: String, Sendable {
        case none
        case catalog
        case learnt
    }

    /// One scanner as the view knows it (the scanner list shows these).
    public struct Scanner: Sendable, Equatable {
        public var name: String
        public var room: String
        public var lastHeard: Double?
        /// From its last status message; nil when it never sent one (ESPresense nodes may not).
        public var online: Bool?
        public var offset: Double
        public var offsetSource: OffsetSource
        public var referenceBeacon: String?
        public var messages = 0
        /// The view's receive time minus the scanner's own time on its last message that carried
        /// one (beacontop's readings): its clock's offset plus the delivery delay, seconds.
        public var clockOffset: Double?
        /// Its radio as its last telemetry said (beacontop agents): nil before any, or from an
        /// agent too old to say. Lost: online, yet hearing nothing (its controller is gone).
        public var radio: ScannerTelemetry.RadioState?
        fileprivate var configuredOffset: Double?
        fileprivate var referenceLevels: [Double] = []
        fileprivate var nextSample = 0

        fileprivate mutating func noteHeard(at time: Double) {
            lastHeard = max(lastHeard ?? time, time)
            messages += 1
        }
    }

    public private(set) var scanners: [String: Scanner] = [:]
    /// New scanners taken in since the start (a room can be new only when this grows).
    public private(set) var admitted = 0
    /// Messages not used because they named a new scanner while `unlistedScannerLimit` unlisted
    /// scanners were known and all alive; the first such name.
    public private(set) var refusedMessages = 0
    public private(set) var firstRefused: String?
    /// Unlisted scanners forgotten to make room for a new name, and the last of them as it was.
    public private(set) var forgotten = 0
    public private(set) var lastForgotten: Scanner?
    /// Scanners retired (their retained status deleted) since the start.
    public private(set) var retired = 0
    /// No unlisted scanner can be dead before this time (none was at the last look, and a silence
    /// only ends with a message); an `offline` status resets it.
    private var noneDeadBefore = -Double.infinity
    /// The catalog's scanners as declared, before any message: what a retired one goes back to.
    private var declared: [String: Scanner] = [:]
    private var referenceOwner: [String: String] = [:]
    private let settings: PresenceSettings

    public init(catalog: ExhibitCatalog? = nil, settings: PresenceSettings = PresenceSettings()) {
        self.settings = settings
        for entry in catalog?.scanners ?? [] {
            scanners[entry.id] = Scanner(
                name: entry.id, room: entry.room, offset: entry.rssiOffset ?? 0, offsetSource: entry.rssiOffset == nil ? .none : .catalog,
                referenceBeacon: entry.referenceBeacon, configuredOffset: entry.rssiOffset
            )
            if let reference = entry.referenceBeacon { referenceOwner[reference] = entry.id }
        }
        declared = scanners
    }

    /// Notes any message from `name` at `time`; a scanner not in the catalog covers a room of its
    /// own name (an ESPresense node is named after its room). False when `name` is new and refused:
    /// `unlistedScannerLimit` scanners not in the catalog are known and all alive. Then the message
    /// is not used at all (counted in `refusedMessages`), so no room is learnt or announced from it.
    @discardableResult
    public mutating func heard(_ name: String, at time: Double) -> Bool {
        // A message's time never moves the last-heard time back (telemetry carries the scanner's
        // own clock, which may be behind the view's).
        // One look-up for a known scanner: this runs for every message.
        if let index = scanners.index(forKey: name) {
            scanners.values[index].noteHeard(at: time)
            return true
        }
        guard admit(name, at: time) else { return false }
        scanners[name, default: Scanner(name: name, room: name, offset: 0, offsetSource: .none)].noteHeard(at: time)
        return true
    }

    /// Scanners heard that the catalog does not list (the catalog's are always kept).
    public var unlistedCount: Int { scanners.count - declared.count }

    /// Makes room for a new scanner not in the catalog: below the limit there is room; at it, the
    /// unlisted scanner dead longest (offline, or silent past `scannerSilence`) is forgotten, as
    /// ESPresense Companion forgets a device unseen past its retention; with none dead, the name is
    /// refused. A live scanner is never pushed out by a new name, so a flood cannot take a working
    /// node's place; a renaming firmware's old names die in 25 s and make room for its new ones.
    private mutating func admit(_ name: String, at time: Double) -> Bool {
        if unlistedCount >= settings.unlistedScannerLimit {
            guard time >= noneDeadBefore, let dead = longestDead(at: time) else {
                refusedMessages += 1
                if firstRefused == nil { firstRefused = name }
                return false
            }
            scanners[dead.name] = nil
            forgotten += 1
            lastForgotten = dead
        }
        admitted += 1
        return true
    }

    /// The unlisted scanner dead longest at `time`; nil when all are alive, and then the earliest
    /// time one can die of silence is noted, so a flood of refused names costs no scan each.
    private mutating func longestDead(at time: Double) -> Scanner? {
        var oldest: (last: Double, name: String, scanner: Scanner)?
        var firstDeath = Double.infinity
        for (name, scanner) in scanners where declared[name] == nil {
            let last = scanner.lastHeard ?? -.infinity
            if scanner.online == false || time - last > settings.scannerSilence {
                // Heard longest ago; the name settles a tie, so the dictionary's order never does.
                if oldest.map({ (last, name) < ($0.last, $0.name) }) ?? true { oldest = (last, name, scanner) }
            } else {
                firstDeath = min(firstDeath, last + settings.scannerSilence)
            }
        }
        if oldest == nil { noneDeadBefore = firstDeath.nextUp }
        return oldest?.scanner
    }

    public mutating func noteClock(_ name: String, offset: Double) {
        if offset.isFinite { scanners[name]?.clockOffset = offset }
    }

    /// Notes what a scanner's telemetry said of its radio (nil: it did not say).
    public mutating func noteRadio(_ name: String, _ radio: ScannerTelemetry.RadioState?) {
        if let radio { scanners[name]?.radio = radio }
    }

    /// Forgets what its telemetry said of its radio (the retained telemetry was deleted).
    public mutating func forgetRadio(_ name: String) {
        scanners[name]?.radio = nil
    }

    /// A scanner whose retained status was deleted: someone retired it (`mosquitto_pub -r -n`).
    /// It leaves the list, its last status, telemetry and counts with it; a catalog's scanner
    /// stays as the catalog declares it, never heard. A message of it later brings it back.
    public mutating func retire(_ name: String) {
        guard scanners[name] != nil else { return }
        retired += 1
        scanners[name] = declared[name]
    }

    /// False when `name` is new and refused (`heard`).
    @discardableResult
    public mutating func setStatus(_ name: String, online: Bool, at time: Double) -> Bool {
        guard heard(name, at: time) else { return false }
        scanners[name]!.online = online
        if !online { noneDeadBefore = -.infinity }
        return true
    }

    /// Alive: not declared offline, and heard within `scannerSilence` seconds.
    public func isAlive(_ name: String, at time: Double) -> Bool {
        guard let scanner = scanners[name], scanner.online != false, let last = scanner.lastHeard else { return false }
        return time - last <= settings.scannerSilence
    }

    public func room(of name: String) -> String { scanners[name]?.room ?? name }
    public func offset(of name: String) -> Double { scanners[name]?.offset ?? 0 }

    /// True for a catalog's reference beacon: it sits by a scanner and is nobody's visitor.
    public func isReference(_ beacon: String) -> Bool { referenceOwner[beacon] != nil }

    /// Learns `scanner`'s offset from a reading of its own reference beacon, 1 m away: the
    /// offset brings the median of its last `referenceSamples` readings to the beacon's power at
    /// 1 m. A catalog's `rssiOffset` wins over a learnt one (someone measured it on purpose).
    public mutating func learn(from reading: ScannerReading) {
        guard referenceOwner[reading.beacon] == reading.scanner, var scanner = scanners[reading.scanner] else { return }
        let expected = reading.measuredPower ?? settings.defaultMeasuredPower
        let capacity = max(1, settings.referenceSamples)
        if scanner.referenceLevels.count < capacity {
            scanner.referenceLevels.append(reading.rssi - expected)
        } else {
            scanner.referenceLevels[scanner.nextSample] = reading.rssi - expected
        }
        scanner.nextSample = (scanner.nextSample + 1) % capacity
        if scanner.configuredOffset == nil {
            let sorted = scanner.referenceLevels.sorted()
            let middle = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            scanner.offset = -median
            scanner.offsetSource = .learnt
        }
        scanners[reading.scanner] = scanner
    }
}
