import BeaconFormats

/// How close a beacon is, in CoreLocation's four classes (`CLProximity`). The adapter maps Ranging's own
/// classification onto this; the monitor only colours and sorts by it.
public enum ProximityClass: String, Sendable, CaseIterable, Comparable {
    case immediate, near, far, unknown

    /// Closest first, `unknown` last.
    public static func < (lhs: ProximityClass, rhs: ProximityClass) -> Bool {
        lhs.rank < rhs.rank
    }

    var rank: Int {
        switch self {
        case .immediate: 0
        case .near: 1
        case .far: 2
        case .unknown: 3
        }
    }
}

/// One filter's estimate for the detail pane ("every filter's estimate side by side").
public struct FilterEstimate: Sendable, Equatable {
    /// The filter's short name as `f` cycles through it (`kalman`, `median`, `ewma`, ...).
    public var filterName: String
    /// Its distance estimate in metres, nil while it has too few samples.
    public var accuracy: Double?

    public init(filterName: String, accuracy: Double?) {
        self.filterName = filterName
        self.accuracy = accuracy
    }
}

/// One row of the live table: everything the monitor shows about a beacon, already computed.
///
/// The adapter fills one per ranged beacon from the ranging snapshot; the monitor sorts, filters and
/// draws them but never computes ranging values itself. Strings may come straight from the air
/// (Eddystone URLs, catalog names): the renderer sanitises them, the adapter need not.
public struct BeaconRowModel: Sendable, Equatable {
    /// The beacon's identity; its `description` is the full id, and selection follows it across updates.
    public var identity: BeaconIdentity
    /// The exhibit name from the catalog, nil when the beacon is not in the catalog.
    public var exhibitName: String?
    /// The latest raw RSSI (dBm), nil if no packet carried one.
    public var rssi: Int?
    /// Recent raw RSSI samples (dBm), oldest first, about one per second over the last minute: drawn as
    /// the sparkline and the detail pane's RSSI chart. The renderer shows only the newest that fit.
    public var rssiHistory: [Int]
    /// The smoothed distance estimate in metres ("accuracy" as CoreLocation calls it), nil if unknown.
    public var accuracy: Double?
    /// The range (metres) that holds the true distance with probability `rangeProbability`; nil if unknown.
    public var accuracyRange: ClosedRange<Double>?
    /// The probability `accuracyRange` is stated with (0.8 by default).
    public var rangeProbability: Double
    /// Recent smoothed distances (metres), oldest first, same cadence as `rssiHistory`: the distance chart.
    public var accuracyHistory: [Double]
    public var proximity: ProximityClass
    /// The calibrated RSSI at 1 m (dBm) the distance used: the frame's, or the catalog's override.
    public var measuredPower: Int?
    /// Packets per second; nil until the beacon has been heard for a second (no meaningful rate
    /// yet: a beacon evicted under churn and heard again starts over, and one packet is no rate).
    public var packetsPerSecond: Double?
    /// Seconds since the last packet, on the source's clock (replay time when replaying).
    public var secondsSinceSeen: Double
    /// True once the beacon has been silent long enough that its values are old: the row is dimmed.
    public var isStale: Bool
    /// The last raw advertising data (AD structures) as received, for the detail pane's hex dump.
    public var lastRawFrame: [UInt8]
    /// Every filter's estimate for this beacon, shown side by side in the detail pane.
    public var filterEstimates: [FilterEstimate]
    /// `identity.shortDescription`, made once per beacon (the table draws it in every frame).
    public var shortName: String
    /// A venue's beacon (`monitor mqtt://BROKER`): its room and scanners; nil for a radio's.
    public var venue: VenuePlacement?

    public init(
        identity: BeaconIdentity, exhibitName: String? = nil, rssi: Int? = nil, rssiHistory: [Int] = [],
        accuracy: Double? = nil, accuracyRange: ClosedRange<Double>? = nil, rangeProbability: Double = 0.8, accuracyHistory: [Double] = [],
        proximity: ProximityClass = .unknown, measuredPower: Int? = nil, packetsPerSecond: Double? = 0,
        secondsSinceSeen: Double = 0, isStale: Bool = false, lastRawFrame: [UInt8] = [],
        filterEstimates: [FilterEstimate] = [], shortName: String? = nil
    ) {
        self.identity = identity
        self.exhibitName = exhibitName
        self.rssi = rssi
        self.rssiHistory = rssiHistory
        self.accuracy = accuracy
        self.accuracyRange = accuracyRange
        self.rangeProbability = rangeProbability
        self.accuracyHistory = accuracyHistory
        self.proximity = proximity
        self.measuredPower = measuredPower
        self.packetsPerSecond = packetsPerSecond
        self.secondsSinceSeen = secondsSinceSeen
        self.isStale = isStale
        self.lastRawFrame = lastRawFrame
        self.filterEstimates = filterEstimates
        self.shortName = shortName ?? identity.shortDescription
    }

    /// The exhibit name, or the beacon's short identity when it has none.
    public var displayName: String { exhibitName ?? shortName }
}

extension BeaconIdentity {
    /// A compact id for narrow columns: the first 8 hex digits of a UUID then major and minor
    /// (`E2C56DB5…:100:1`), the instance of an Eddystone-UID, the URL itself.
    public var shortDescription: String {
        switch self {
        case .iBeacon(let uuid, let major, let minor), .altBeacon(let uuid, let major, let minor):
            return "\(uuid.description.prefix(8))…:\(major):\(minor)"
        case .eddystoneUID:
            let parts = description.split(separator: ":")
            return parts.count == 2 ? "\(parts[0].prefix(6))…:\(parts[1])" : description
        default:
            return description
        }
    }
    /// `shortDescription` cut to `width` columns where it is longer, keeping what tells beacons of one
    /// UUID or namespace apart: the UUID's hex gives way before major and minor (`E2C…:100:1`), and
    /// when even those do not fit, their end stays (`…00:65535`). Cutting the end instead, as for
    /// any other text, left `E2C56DB5……` for every beacon of a venue's UUID on a 60-column screen.
    /// Nil for the ids without such an end (a URL), which are cut like other text.
    public func shortDescription(fitting width: Int) -> String? {
        let whole = shortDescription
        guard whole.count > width, width > 1 else { return nil }
        let tail: String
        switch self {
        case .iBeacon(let uuid, let major, let minor), .altBeacon(let uuid, let major, let minor):
            tail = ":\(major):\(minor)"
            if width - tail.count >= 2 { return "\(uuid.description.prefix(width - tail.count - 1))…\(tail)" }
        case .eddystoneUID:
            guard let colon = whole.firstIndex(of: ":") else { return nil }
            tail = String(whole[colon...])
        default:
            return nil
        }
        return "…" + tail.suffix(width - 1)
    }
}
