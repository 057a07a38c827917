import Simulation

/// One visitor's day: arrives at `arrival` in a room, stays, walks straight to a point in another
/// room, stays, and so on to the end of the run. Stays last 30 s to 2.5 min (a trade-show booth
/// visit); walking is 1.0-1.4 m/s; while staying the visitor turns to look around every 5-15 s.
public struct VenueWalk: Sendable {
    public struct Segment: Sendable {
        public var start: Double
        public var end: Double
        public var from: Point2D
        public var to: Point2D
        /// Set for a stay: the room, and the direction the visitor faces.
        public var room: Int?
        public var headings: [(until: Double, heading: Point2D)]
    }

    public let arrival: Double
    public let segments: [Segment]

    public init(plan: VenueFloorPlan, duration: Double, rng: inout SplitMix64) {
        arrival = rng.unit() * 60
        var segments: [Segment] = []
        var time = arrival
        var room = rng.index(below: plan.roomCount)
        var here = plan.point(in: room, margin: 1, rng: &rng)
        while time < duration {
            let stay = 30 + rng.unit() * 120
            var headings: [(Double, Point2D)] = []
            var turn = time
            while turn < time + stay {
                turn += 5 + rng.unit() * 10
                let angle = rng.unit() * 2 * Double.pi
                headings.append((turn, Point2D(1, 0).rotated(by: angle)))
            }
            segments.append(Segment(start: time, end: time + stay, from: here, to: here, room: room, headings: headings))
            time += stay
            var next = rng.index(below: plan.roomCount - 1)
            if next >= room { next += 1 }
            let target = plan.point(in: next, margin: 1, rng: &rng)
            let walking = here.distance(to: target) / (1.0 + rng.unit() * 0.4)
            segments.append(Segment(start: time, end: time + walking, from: here, to: target, room: nil, headings: []))
            time += walking
            room = next
            here = target
        }
        self.segments = segments
    }

    /// Where the visitor is at `time`, which way it faces, and since when it has been staying in
    /// its room (nil while walking or before arriving); nil position before arrival.
    public func pose(at time: Double) -> (position: Point2D, heading: Point2D, stayingSince: Double?)? {
        guard time >= arrival else { return nil }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        if segment.room != nil {
            let heading = segment.headings.first { $0.until > time }?.heading ?? segment.headings.last?.heading ?? Point2D(1, 0)
            return (segment.from, heading, segment.start)
        }
        let span = max(segment.end - segment.start, 1e-9)
        let fraction = min(1, max(0, (time - segment.start) / span))
        let position = segment.from + (segment.to - segment.from) * fraction
        return (position, (segment.to - segment.from).unit ?? Point2D(1, 0), nil)
    }
}
