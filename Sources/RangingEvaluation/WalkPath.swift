import Simulation

/// The visitor's route as straight legs: standing still in front of an exhibit, or walking.
struct WalkPath: Sendable {
    struct Leg: Sendable {
        var start: Double
        var duration: Double
        var from: (x: Double, y: Double)
        var to: (x: Double, y: Double)
        /// Unit vector the visitor faces.
        var facing: (x: Double, y: Double)
        var visiting: Int?
    }

    var legs: [Leg] = []
    var end: Double { legs.last.map { $0.start + $0.duration } ?? 0 }

    mutating func walk(to point: (x: Double, y: Double), speed: Double) {
        let from = legs.last?.to ?? point
        let dx = point.x - from.x, dy = point.y - from.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 1e-6 else { return }
        legs.append(Leg(start: end, duration: length / speed, from: from, to: point, facing: (dx / length, dy / length), visiting: nil))
    }

    mutating func stand(at point: (x: Double, y: Double), facing target: (x: Double, y: Double), for duration: Double, visiting: Int) {
        let dx = target.x - point.x, dy = target.y - point.y
        let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
        legs.append(Leg(start: end, duration: duration, from: point, to: point, facing: (dx / length, dy / length), visiting: visiting))
    }

    /// Position and facing at `time` (clamped to the path).
    func pose(at time: Double) -> (x: Double, y: Double, facingX: Double, facingY: Double) {
        guard !legs.isEmpty else { return (0, 0, 1, 0) }
        var low = 0, high = legs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if legs[mid].start <= time { low = mid } else { high = mid - 1 }
        }
        let leg = legs[low]
        let f = leg.duration > 0 ? min(max((time - leg.start) / leg.duration, 0), 1) : 1
        return (leg.from.x + (leg.to.x - leg.from.x) * f, leg.from.y + (leg.to.y - leg.from.y) * f, leg.facing.x, leg.facing.y)
    }

    var stays: [Stay] {
        legs.compactMap { leg in leg.visiting.map { Stay(beaconIndex: $0, start: leg.start, end: leg.start + leg.duration) } }
    }
}
