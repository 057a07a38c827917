/// One leg of a walk: standing still in front of an exhibit, or walking in a straight line.
public struct WalkLeg: Sendable, Hashable {
    public var from: Point2D
    public var to: Point2D
    public var duration: Double
    /// Where the walker faces while standing (a unit vector); walking legs face where they go.
    public var facing: Point2D
    /// The index of the beacon (exhibit) being visited during a stay; nil while walking.
    public var visiting: Int?

    public init(from: Point2D, to: Point2D, duration: Double, facing: Point2D, visiting: Int?) {
        self.from = from
        self.to = to
        self.duration = duration
        self.facing = facing
        self.visiting = visiting
    }

    /// A stay at `point`, facing `facing`, for `duration` seconds.
    public static func stay(at point: Point2D, facing: Point2D, duration: Double, visiting: Int?) -> WalkLeg {
        WalkLeg(from: point, to: point, duration: duration, facing: facing.unit ?? Point2D(1, 0), visiting: visiting)
    }

    /// A walk from `from` to `to` at `speed` m/s, facing the way it goes.
    public static func walk(from: Point2D, to: Point2D, speed: Double) -> WalkLeg {
        let direction = (to - from).unit ?? Point2D(1, 0)
        return WalkLeg(from: from, to: to, duration: from.distance(to: to) / speed, facing: direction, visiting: nil)
    }

    public var isStay: Bool { visiting != nil || from == to }
}

/// Where the walker is and which way they face at one moment.
public struct WalkerPose: Sendable, Hashable {
    public var position: Point2D
    /// Unit vector: where the walker (and the phone held in front) faces.
    public var heading: Point2D
    /// The exhibit being visited (standing at it), nil while walking.
    public var visiting: Int?
}

/// A stay with its times, for ground truth and dwell checks.
public struct Stay: Sendable, Hashable {
    public var beaconIndex: Int
    public var start: Double
    public var end: Double

    public init(beaconIndex: Int, start: Double, end: Double) {
        self.beaconIndex = beaconIndex
        self.start = start
        self.end = end
    }
}

/// A walker's whole route as legs back to back, starting at time 0 (seconds since the start of
/// the scenario). Plans that end where they start can loop seamlessly.
public struct WalkPlan: Sendable, Hashable {
    public let legs: [WalkLeg]
    /// Start time of each leg; `legStarts[i] + legs[i].duration == legStarts[i + 1]`.
    public let legStarts: [Double]
    public let duration: Double

    public init(legs: [WalkLeg]) {
        precondition(!legs.isEmpty, "a walk plan needs at least one leg")
        self.legs = legs
        var starts: [Double] = []
        var t = 0.0
        for leg in legs {
            starts.append(t)
            t += max(0, leg.duration)
        }
        legStarts = starts
        duration = t
    }

    /// The pose at `time`; times outside the plan clamp to its ends, unless `looping`, which
    /// wraps them around (the plan is meant to end where it starts).
    public func pose(at time: Double, looping: Bool = false) -> WalkerPose {
        var t = time
        if looping, duration > 0 {
            t = t.truncatingRemainder(dividingBy: duration)
            if t < 0 { t += duration }
        }
        t = min(max(t, 0), duration)
        let index = legIndex(at: t)
        let leg = legs[index]
        let along = leg.duration > 0 ? min(1, max(0, (t - legStarts[index]) / leg.duration)) : 1
        return WalkerPose(position: leg.from + (leg.to - leg.from) * along, heading: leg.facing, visiting: leg.visiting)
    }

    /// Every stay at an exhibit, in order.
    public var stays: [Stay] {
        legs.indices.compactMap { i in
            legs[i].visiting.map { Stay(beaconIndex: $0, start: legStarts[i], end: legStarts[i] + legs[i].duration) }
        }
    }

    private func legIndex(at t: Double) -> Int {
        // The last leg starting at or before t (binary search: plans of long runs have many legs).
        var low = 0, high = legStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if legStarts[mid] <= t { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
