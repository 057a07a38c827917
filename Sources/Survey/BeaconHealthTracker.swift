import BeaconFormats
import HCI
import Ranging

/// Keeps each transmitter's health from the beacon frames it sends: its telemetry (Eddystone TLM,
/// plain or encrypted), its advertising interval and loss measured from arrival times, and the 1 m
/// power it claims, checked against the catalog. Time is data: it never reads a clock.
///
/// Keyed by address, because a TLM frame names no beacon: it belongs to the UID or URL frames the
/// same address sends. A transmitter that rotates its address is merged with `merge(_:into:)`
/// (the `DuplicateDetector` says when). Memory is bounded: a fixed record per transmitter
/// (`HealthConfiguration.arrivalHistory` event times, a few identities) and at most
/// `maxTransmitters` of them.
public struct BeaconHealthTracker: Sendable {
    public var configuration: HealthConfiguration
    public var catalog: ExhibitCatalog?
    private var records: [BDAddress: TransmitterRecord] = [:]
    /// Transmitters dropped because more than `maxTransmitters` were heard.
    public private(set) var evicted = 0

    public init(configuration: HealthConfiguration = HealthConfiguration(), catalog: ExhibitCatalog? = nil) {
        self.configuration = configuration
        self.catalog = catalog
    }

    public var transmitterCount: Int { records.count }

    /// One beacon frame heard from `address` at capture time `time`.
    public mutating func observe(time: Double, address: BDAddress, rssi: Int?, frame: BeaconFrame) {
        // One hash per packet, and the record changed in place: `records[address] == nil` copied the
        // whole record out (callgrind, `beacontop-bench survey 100000 health`).
        if let index = records.index(forKey: address) {
            records.values[index].observe(time: time, rssi: rssi, frame: frame, identityLimit: configuration.identitiesPerTransmitter)
            return
        }
        if records.count >= configuration.maxTransmitters { evictLeastRecent() }
        var record = TransmitterRecord(address: address, time: time, capacity: configuration.arrivalHistory)
        record.observe(time: time, rssi: rssi, frame: frame, identityLimit: configuration.identitiesPerTransmitter)
        records[address] = record
    }

    /// `old` was the same transmitter as `new` before it rotated its address: `new` takes over its
    /// events, telemetry and identities, and `old` is forgotten.
    public mutating func merge(_ old: BDAddress, into new: BDAddress) {
        guard old != new, let earlier = records.removeValue(forKey: old) else { return }
        guard records[new] != nil else {
            var moved = earlier
            moved.address = new
            records[new] = moved
            return
        }
        records[new]!.absorb(earlier, identityLimit: configuration.identitiesPerTransmitter)
    }

    /// The health of one transmitter.
    public func health(of address: BDAddress) -> BeaconHealth? {
        records[address].map { BeaconHealth($0, catalog: catalog, configuration: configuration) }
    }

    /// The health of the transmitter that most recently sent `identity`.
    public func health(of identity: BeaconIdentity) -> BeaconHealth? {
        records.values.filter { $0.identities.contains(identity) }.max { $0.lastSeen < $1.lastSeen }
            .map { BeaconHealth($0, catalog: catalog, configuration: configuration) }
    }

    /// Every transmitter, by name then address.
    public func report() -> [BeaconHealth] {
        // Names computed once each, not per comparison: a name may be an id printed from its bytes.
        records.values.map { record in
            let health = BeaconHealth(record, catalog: catalog, configuration: configuration)
            return (name: health.name, health: health)
        }
        .sorted { ($0.name, $0.health.address) < ($1.name, $1.health.address) }
        .map(\.health)
    }

    private mutating func evictLeastRecent() {
        guard let oldest = records.values.min(by: { $0.lastSeen < $1.lastSeen }) else { return }
        records[oldest.address] = nil
        evicted += 1
    }
}
