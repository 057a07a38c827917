import BeaconFormats
import HCI
import Ranging

/// Beacon health and duplicate detection as one consumer of sightings, for the monitor and the
/// NDJSON ticks: every sighting (Eddystone-TLM included) goes to the health tracker, every identity
/// frame to the duplicate detector, and a confirmed address change merges the two addresses' health
/// (docs/survey.md). Time is data, as everywhere on the path.
///
/// Memory is what its two parts keep: at most `HealthConfiguration.maxTransmitters` transmitters
/// and `DuplicateConfiguration.maxIdentities` identities, whatever the number of beacons heard.
public struct BeaconWatch: Sendable {
    public private(set) var health: BeaconHealthTracker
    public private(set) var duplicates: DuplicateDetector

    public init(
        catalog: ExhibitCatalog? = nil, health: HealthConfiguration = HealthConfiguration(),
        duplicates: DuplicateConfiguration = DuplicateConfiguration()
    ) {
        self.health = BeaconHealthTracker(configuration: health, catalog: catalog)
        self.duplicates = DuplicateDetector(configuration: duplicates)
    }

    /// A new catalog (the calibration wizard saved into it): thresholds and names follow.
    public mutating func replaceCatalog(_ catalog: ExhibitCatalog?) { health.catalog = catalog }

    /// One sighting; returns the `duplicate` and `address-rotated` events it completed.
    public mutating func observe(_ sighting: BeaconSighting) -> [AddressEvent] {
        guard sighting.timestamp.isFinite else { return [] }
        let rssi = sighting.rssi.map(Int.init)
        health.observe(time: sighting.timestamp, address: sighting.address, rssi: rssi, frame: sighting.frame)
        if case .eddystoneTLM = sighting.frame { return [] }
        let events = duplicates.observe(time: sighting.timestamp, identity: sighting.identity, address: sighting.address, rssi: rssi)
        for event in events {
            if case .rotated(_, let from, let to, _) = event { health.merge(from, into: to) }
        }
        return events
    }

    /// Every transmitter's health and every identity's condition at `time`: one health report (the
    /// interval estimates are most of its cost, so callers take it at a slow cadence, not per row).
    public func conditions(at time: Double) -> BeaconConditions {
        let report = health.report()
        var byIdentity: [BeaconIdentity: BeaconCondition] = [:]
        for transmitter in report {
            for identity in transmitter.identities {
                // The transmitter heard last speaks for an identity sent by several.
                if let known = byIdentity[identity]?.health, known.lastSeen >= transmitter.lastSeen { continue }
                byIdentity[identity, default: BeaconCondition()].health = transmitter
            }
        }
        for finding in duplicates.duplicates(at: time) {
            byIdentity[finding.identity, default: BeaconCondition()].duplicates.append(finding)
        }
        return BeaconConditions(time: time, transmitters: report, byIdentity: byIdentity)
    }
}

/// What is known of one beacon identity's health: the transmitter that sends it (heard last) and
/// any duplicate going on.
public struct BeaconCondition: Sendable, Equatable {
    public var health: BeaconHealth?
    public var duplicates: [DuplicateFinding] = []

    public init(health: BeaconHealth? = nil, duplicates: [DuplicateFinding] = []) {
        self.health = health
        self.duplicates = duplicates
    }

    /// Something to act on: a health finding or a duplicate. A row with one is marked.
    public var hasFinding: Bool { !duplicates.isEmpty || !(health?.findings.isEmpty ?? true) }

    /// The findings in words, health first, then duplicates.
    public var findingLines: [String] {
        (health?.findings.map(\.description) ?? []) + duplicates.map(\.description)
    }
}

/// `BeaconWatch.conditions(at:)`: every transmitter (the health view) and each identity's
/// condition (rows, the detail pane, NDJSON).
public struct BeaconConditions: Sendable, Equatable {
    /// When it was taken (capture time): ages (TLM) are counted to it.
    public var time: Double
    /// Every transmitter, by name then address.
    public var transmitters: [BeaconHealth]
    public var byIdentity: [BeaconIdentity: BeaconCondition]

    public init(time: Double = .nan, transmitters: [BeaconHealth] = [], byIdentity: [BeaconIdentity: BeaconCondition] = [:]) {
        self.time = time
        self.transmitters = transmitters
        self.byIdentity = byIdentity
    }

    public static func == (lhs: BeaconConditions, rhs: BeaconConditions) -> Bool {
        (lhs.time == rhs.time || (lhs.time.isNaN && rhs.time.isNaN)) && lhs.transmitters == rhs.transmitters && lhs.byIdentity == rhs.byIdentity
    }
}
