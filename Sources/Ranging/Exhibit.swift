import BeaconFormats
import Foundation

/// One catalog entry: a beacon identity mapped to what a visitor reads, with optional calibration.
public struct Exhibit: Sendable, Hashable {
    /// A `BeaconIdentity` description string (`UUID:major:minor` for iBeacon, UUID upper-cased on load).
    public var id: String
    public var name: String
    public var description: String?
    /// Metres on the floor plan (x, y).
    public var position: FloorPosition?
    /// Overrides the frame's measured power (dBm at 1 m).
    public var measuredPower: Double?
    /// Overrides the configured path-loss exponent for this beacon.
    public var pathLossExponent: Double?
    /// The advertising interval the beacon was configured with, seconds (`advertisingIntervalMs` in
    /// the file): beacon health compares the measured interval with it.
    public var advertisingInterval: Double?
    /// Battery voltage (mV) below which beacon health warns; overrides the default for a coin cell.
    public var lowBatteryMillivolts: Int?

    public init(
        id: String, name: String, description: String? = nil, position: FloorPosition? = nil,
        measuredPower: Double? = nil, pathLossExponent: Double? = nil,
        advertisingInterval: Double? = nil, lowBatteryMillivolts: Int? = nil
    ) {
        self.id = Exhibit.normalisedID(id)
        self.name = name
        self.description = description
        self.position = position
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
        self.advertisingInterval = advertisingInterval
        self.lowBatteryMillivolts = lowBatteryMillivolts
    }

    /// iBeacon/AltBeacon ids are matched with the UUID upper-case and dashed, as `BeaconIdentity`
    /// prints them, so a hand-typed lower-case UUID still matches. Other ids are kept as written.
    public static func normalisedID(_ id: String) -> String {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        if let region = BeaconRegion(spec: trimmed), region.major != nil, region.minor != nil {
            return region.spec
        }
        return trimmed
    }

    /// The region of exactly this beacon (UUID + major + minor), when the id is one.
    public var region: BeaconRegion? {
        guard let region = BeaconRegion(spec: id, name: id), region.minor != nil else { return nil }
        return region
    }
}

/// A point on the floor plan, metres.
public struct FloorPosition: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The farthest a coordinate of a catalog or survey file may be from the plan's origin: 1000 km.
    /// Any finite number was taken, and the survey's maps divide the plan into a grid: a wall at
    /// 1.8e31 m drew 10^29 grid lines, walls at +-1.7e308 m made the plan infinitely wide and
    /// trapped converting its cell count to Int (fuzz-survey).
    public static let largestCoordinate = 1_000_000.0

    /// Why `value` (a finite number) is no floor coordinate, or nil when it is one.
    public static func refusal(_ value: Double) -> String? {
        abs(value) <= largestCoordinate ? nil : "\(value) m is more than 1000 km from the plan's origin"
    }
}

/// A wall on the floor plan: a polyline of at least two points, metres. Drawn on the survey's plan
/// and maps; ranging does not use it.
public struct Wall: Sendable, Hashable {
    public var points: [FloorPosition]

    public init(points: [FloorPosition]) {
        self.points = points
    }

    /// The straight pieces between consecutive points.
    public var segments: [(from: FloorPosition, to: FloorPosition)] {
        zip(points, points.dropFirst()).map { (from: $0, to: $1) }
    }
}
