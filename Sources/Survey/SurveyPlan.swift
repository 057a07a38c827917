import Ranging

/// The floor plan a survey is taken on: the exhibits (with their beacons' positions) and walls of
/// the catalog, copied into the survey file so a report drawn later shows the venue as it was
/// surveyed even if the catalog has changed since. Metres; x to the right, y up (north up).
public struct SurveyPlan: Sendable, Equatable, Codable {
    public struct Beacon: Sendable, Equatable, Codable {
        /// The beacon id (`BeaconIdentity.description`).
        public var id: String
        public var name: String
        /// Where the beacon is; nil when the catalog gives no position (still a nearest candidate).
        public var x: Double?
        public var y: Double?

        public init(id: String, name: String, position: FloorPosition?) {
            self.id = id
            self.name = name
            x = position?.x
            y = position?.y
        }

        public var position: FloorPosition? {
            guard let x, let y else { return nil }
            return FloorPosition(x: x, y: y)
        }
    }

    public var title: String?
    public var beacons: [Beacon]
    /// Each wall a polyline: a list of `[x, y]` points.
    public var walls: [[[Double]]]

    public init(title: String?, beacons: [Beacon], walls: [[[Double]]]) {
        self.title = title
        self.beacons = beacons
        self.walls = walls
    }

    /// The plan of a catalog: every exhibit and every wall.
    public init(catalog: ExhibitCatalog) {
        self.init(
            title: catalog.title,
            beacons: catalog.exhibits.map { Beacon(id: $0.id, name: $0.name, position: $0.position) },
            walls: catalog.walls.map { wall in wall.points.map { [$0.x, $0.y] } }
        )
    }

    /// The walls as segments between consecutive points (malformed points, which only a
    /// hand-edited survey file could hold, are skipped).
    public var wallSegments: [(from: FloorPosition, to: FloorPosition)] {
        walls.flatMap { wall in
            let points = wall.compactMap { $0.count == 2 ? FloorPosition(x: $0[0], y: $0[1]) : nil }
            return zip(points, points.dropFirst()).map { (from: $0, to: $1) }
        }
    }

    public func beacon(id: String) -> Beacon? { beacons.first { $0.id == id } }

    /// The short label a map gives each beacon: A, B, ... Z, then AA, AB...
    public static func label(_ index: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var text = ""
        var n = index
        repeat {
            text.insert(letters[n % 26], at: text.startIndex)
            n = n / 26 - 1
        } while n >= 0
        return text
    }
}
