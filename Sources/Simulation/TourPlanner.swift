/// How a visitor moves through a venue: how close they stand, how long they stay, how fast
/// they walk between exhibits.
public struct TourStyle: Sendable, Hashable {
    public var standDistance: ClosedRange<Double>
    public var stayDuration: ClosedRange<Double>
    public var walkingSpeed: ClosedRange<Double>
    /// How far (radians, either way) the standing spot strays from straight in front.
    public var standAngleJitter: Double

    public init(standDistance: ClosedRange<Double>, stayDuration: ClosedRange<Double>,
                walkingSpeed: ClosedRange<Double>, standAngleJitter: Double) {
        self.standDistance = standDistance
        self.stayDuration = stayDuration
        self.walkingSpeed = walkingSpeed
        self.standAngleJitter = standAngleJitter
    }

    /// Issue 3's museum walk: 0.6-1.2 m from each exhibit for 10-25 s, walking 1.0-1.4 m/s.
    public static let museum = TourStyle(standDistance: 0.6...1.2, stayDuration: 10...25,
                                         walkingSpeed: 1.0...1.4, standAngleJitter: 0.35)
    /// A trade-show visitor: a little further from a booth's counter, stays from a glance to a chat.
    public static let tradeShow = TourStyle(standDistance: 0.8...1.8, stayDuration: 8...120,
                                            walkingSpeed: 0.9...1.3, standAngleJitter: 0.5)
}

/// Builds a walk plan visiting exhibits in a given order: walk from the entrance to a spot in
/// front of each exhibit, stand facing it, walk on, and finally walk back to the entrance (so the
/// plan loops).
public enum TourPlanner {
    /// `visits` are beacon indices in visiting order (repeats allowed). The standing spot lies
    /// towards the middle of the venue (the centroid of all beacons; for an exhibit in the middle,
    /// the side the walker comes from), turned by up to `standAngleJitter`; it is always nearer
    /// its exhibit than any other beacon (by `clearance`), so the true nearest during a stay is the
    /// visited one.
    public static func plan(beacons: [SimulatedBeacon], visits: [Int], entrance: Point2D,
                            style: TourStyle, rng: inout SplitMix64) -> WalkPlan {
        precondition(!beacons.isEmpty, "a tour needs beacons")
        let positions = beacons.map(\.position)
        let centroid = positions.reduce(Point2D.zero, +) * (1 / Double(positions.count))
        var legs: [WalkLeg] = []
        var here = entrance
        for index in visits where beacons.indices.contains(index) {
            let exhibit = positions[index]
            let spot = standingSpot(for: index, positions: positions, centroid: centroid, comingFrom: here,
                                    style: style, rng: &rng)
            if spot != here { legs.append(.walk(from: here, to: spot, speed: rng.uniform(style.walkingSpeed))) }
            legs.append(.stay(at: spot, facing: exhibit - spot, duration: rng.uniform(style.stayDuration), visiting: index))
            here = spot
        }
        if here != entrance || legs.isEmpty {
            legs.append(.walk(from: here, to: entrance, speed: rng.uniform(style.walkingSpeed)))
        }
        return WalkPlan(legs: legs)
    }

    static func standingSpot(for index: Int, positions: [Point2D], centroid: Point2D, comingFrom: Point2D,
                             style: TourStyle, rng: inout SplitMix64) -> Point2D {
        let exhibit = positions[index]
        let outward = (exhibit.distance(to: centroid) > 1 ? (centroid - exhibit).unit : nil)
            ?? (comingFrom - exhibit).unit ?? Point2D(0, -1)
        var fallback = exhibit + outward * style.standDistance.lowerBound
        for attempt in 0..<20 {
            let jitter = attempt < 16 ? rng.uniform(-style.standAngleJitter...style.standAngleJitter) : 0
            let distance = attempt < 16 ? rng.uniform(style.standDistance) : style.standDistance.lowerBound
            let spot = exhibit + outward.rotated(by: jitter) * distance
            if isClearlyNearest(index, at: spot, positions: positions) { return spot }
            fallback = spot
        }
        return fallback
    }

    /// Where a visitor comes in when the venue does not say: the middle of the south side, 2 m
    /// below the southernmost beacon (catalogs have positions but no doors).
    public static func defaultEntrance(for beacons: [SimulatedBeacon]) -> Point2D {
        let xs = beacons.map(\.position.x), ys = beacons.map(\.position.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min() else { return .zero }
        return Point2D((minX + maxX) / 2, minY - 2)
    }

    /// A visitor standing at an exhibit stands in front of it, not halfway to the next one: every
    /// other beacon is at least `clearance` times further away than the visited one.
    static let clearance = 1.6

    static func isClearlyNearest(_ index: Int, at spot: Point2D, positions: [Point2D]) -> Bool {
        let own = spot.distance(to: positions[index])
        return positions.indices.allSatisfy { $0 == index || spot.distance(to: positions[$0]) >= clearance * own }
    }

    /// Index of the beacon geometrically nearest `point` (lowest index on ties).
    public static func nearest(to point: Point2D, positions: [Point2D]) -> Int {
        var best = 0
        for i in positions.indices where point.distance(to: positions[i]) < point.distance(to: positions[best]) {
            best = i
        }
        return best
    }
}
