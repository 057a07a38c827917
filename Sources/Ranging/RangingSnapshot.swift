import BeaconFormats
import HCI

/// One beacon as the engine sees it at a tick: what CoreLocation's `CLBeacon` gives, and more.
public struct BeaconReading: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// `identity.description`, computed once per beacon rather than once per tick.
    public var id: String
    public var address: BDAddress
    /// `address.description`, cached per beacon.
    public var addressText: String
    /// The last raw RSSI heard (dBm).
    public var rssi: Int
    /// The filter's estimate (dBm); nil when the beacon is stale or the filter is empty.
    public var filteredRSSI: Double?
    /// Distance estimate in metres; -1 when unknown (CoreLocation's convention).
    public var accuracy: Double
    /// The interval (m) that holds the true distance with probability `rangeProbability`, as far as
    /// the distance model knows (docs/ranging.md, "The range"); nil when the accuracy is unknown.
    public var accuracyRange: ClosedRange<Double>?
    /// The probability `accuracyRange` is stated with (`RangingConfiguration.rangeProbability`).
    public var rangeProbability: Double
    public var proximity: Proximity
    public var measuredPower: ResolvedMeasuredPower
    /// The path-loss exponent used for this beacon (configuration or catalog override).
    public var pathLossExponent: Double
    /// Packets heard since the previous tick.
    public var packets: Int
    public var totalPackets: Int
    /// Packets per second over the last 10 s (or since first heard).
    public var packetsPerSecond: Double
    /// Median gap between packets heard (s): the advertising interval as received, missed packets included.
    public var advertisingInterval: Double?
    public var firstSeen: Double
    public var lastSeen: Double
    /// Not heard for `staleAfter` seconds.
    public var isStale: Bool
    /// The catalog entry for this beacon, if any.
    public var exhibit: Exhibit?

    public var kind: BeaconKind { identity.kind }

    public init(
        identity: BeaconIdentity, id: String? = nil, address: BDAddress, addressText: String? = nil, rssi: Int, filteredRSSI: Double?,
        accuracy: Double, accuracyRange: ClosedRange<Double>?, rangeProbability: Double = 0.8, proximity: Proximity,
        measuredPower: ResolvedMeasuredPower, pathLossExponent: Double, packets: Int, totalPackets: Int,
        packetsPerSecond: Double, advertisingInterval: Double?, firstSeen: Double, lastSeen: Double,
        isStale: Bool, exhibit: Exhibit?
    ) {
        self.identity = identity
        self.id = id ?? identity.description
        self.address = address
        self.addressText = addressText ?? address.description
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.accuracy = accuracy
        self.accuracyRange = accuracyRange
        self.rangeProbability = rangeProbability
        self.proximity = proximity
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
        self.packets = packets
        self.totalPackets = totalPackets
        self.packetsPerSecond = packetsPerSecond
        self.advertisingInterval = advertisingInterval
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.isStale = isStale
        self.exhibit = exhibit
    }
}

/// A region enter or exit (CoreLocation's `didEnterRegion` / `didExitRegion`).
public struct RegionEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case enter, exit }
    public var kind: Kind
    public var region: BeaconRegion
    /// Capture time of the tick that noticed it.
    public var time: Double

    public init(kind: Kind, region: BeaconRegion, time: Double) {
        self.kind = kind
        self.region = region
        self.time = time
    }
}

/// What a tick returns: every beacon (the nearest exhibit's first), the nearest exhibit and region events since
/// the previous tick. The monitor renders it; `TickLineEncoder` writes it as one NDJSON line.
public struct RangingSnapshot: Sendable, Equatable {
    public var time: Double
    /// `nearest`'s beacon first when it is heard, then the rest by accuracy; unknown accuracies last.
    public var beacons: [BeaconReading]
    /// The nearest exhibit (with hysteresis; with no catalog, the nearest beacon): nil only when
    /// nothing is heard, or when the catalog's `nearestWithin` leaves every heard exhibit out
    /// (docs/ranging.md, "Nearest exhibit").
    public var nearest: BeaconIdentity?
    public var events: [RegionEvent]
    /// Beacons evicted so far because more than `maxBeacons` were tracked.
    public var evictedBeacons: Int

    public init(time: Double, beacons: [BeaconReading], nearest: BeaconIdentity?, events: [RegionEvent], evictedBeacons: Int = 0) {
        self.time = time
        self.beacons = beacons
        self.nearest = nearest
        self.events = events
        self.evictedBeacons = evictedBeacons
    }

    public var nearestReading: BeaconReading? {
        guard let nearest else { return nil }
        return beacons.first { $0.identity == nearest }
    }
}
