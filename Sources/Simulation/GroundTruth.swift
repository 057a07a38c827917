/// What really happened at one moment of a simulated run: where the walker was, how far each
/// beacon was, which exhibit was truly nearest and which one (if any) the walker was visiting.
public struct TruthSample: Sendable, Hashable {
    /// Unix seconds, on the same clock as the capture's packets.
    public var time: Double
    public var position: Point2D
    public var heading: Point2D
    /// Distance in metres to each beacon, in `Scenario.beacons` order.
    public var distances: [Double]
    /// Index of the geometrically nearest beacon.
    public var nearest: Int
    /// Index of the exhibit being visited (standing at it); nil while walking.
    public var visiting: Int?
}

/// Ground truth of a scenario: a pure function of its plan and beacons.
public enum GroundTruth {
    /// The truth at scenario time `t` (seconds since the start).
    public static func sample(_ scenario: Scenario, at t: Double, looping: Bool = false) -> TruthSample {
        let pose = scenario.plan.pose(at: t, looping: looping)
        let positions = scenario.beacons.map(\.position)
        return TruthSample(
            time: scenario.startTime + t, position: pose.position, heading: pose.heading,
            distances: positions.map { pose.position.distance(to: $0) },
            nearest: positions.isEmpty ? 0 : TourPlanner.nearest(to: pose.position, positions: positions),
            visiting: pose.visiting
        )
    }

    /// Samples every `step` seconds from 0 through `duration` (inclusive of 0).
    public static func samples(_ scenario: Scenario, step: Double, duration: Double? = nil, looping: Bool = false) -> [TruthSample] {
        var result: [TruthSample] = []
        forEachSample(scenario, step: step, duration: duration, looping: looping) { result.append($0) }
        return result
    }

    /// The same samples one at a time, none kept: a file of them need not fit in memory (500
    /// beacons over 3 hours are 570 MB of truth).
    public static func forEachSample(_ scenario: Scenario, step: Double, duration: Double? = nil, looping: Bool = false,
                                     _ body: (TruthSample) throws -> Void) rethrows {
        precondition(step > 0, "truth step must be positive")
        let end = duration ?? scenario.duration
        var k = 0
        while Double(k) * step <= end + 1e-9 {
            try body(sample(scenario, at: Double(k) * step, looping: looping))
            k += 1
        }
    }

    /// Stays in Unix seconds over `duration` of scenario time, repeating the plan when looping.
    public static func stays(_ scenario: Scenario, duration: Double? = nil, looping: Bool = false) -> [Stay] {
        let end = duration ?? scenario.duration
        let one = scenario.plan.stays
        var result: [Stay] = []
        var offset = 0.0
        repeat {
            for stay in one where stay.start + offset < end {
                result.append(Stay(beaconIndex: stay.beaconIndex, start: scenario.startTime + stay.start + offset,
                                   end: scenario.startTime + min(stay.end + offset, end)))
            }
            offset += scenario.duration
        } while looping && scenario.duration > 0 && offset < end
        return result
    }
}
