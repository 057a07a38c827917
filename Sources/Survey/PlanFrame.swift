import Ranging

/// The part of the floor a picture of the survey shows: every positioned beacon, wall point,
/// sample spot (and the cursor) with a margin, in metres. The SVG maps and the terminal plan both
/// scale this box into their space, x to the right and y up.
public struct PlanFrame: Sendable, Equatable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Encloses the plan, the samples and `extra` points, with `margin` metres all round; a plan
    /// with nothing placed is a 10 m square from the origin. At least 1 m each way, so a single
    /// point still has a scale.
    public init(plan: SurveyPlan, samples: [SurveySample] = [], extra: [FloorPosition] = [], margin: Double = 0.5) {
        let points = plan.beacons.compactMap(\.position)
            + plan.wallSegments.flatMap { [$0.from, $0.to] }
            + samples.map(\.spot) + extra
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = finite.first else {
            self.init(minX: 0, minY: 0, maxX: 10, maxY: 10)
            return
        }
        var box = PlanFrame(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for point in finite {
            box.minX = min(box.minX, point.x)
            box.minY = min(box.minY, point.y)
            box.maxX = max(box.maxX, point.x)
            box.maxY = max(box.maxY, point.y)
        }
        for axis in [\PlanFrame.minX, \PlanFrame.minY] { box[keyPath: axis] -= margin }
        for axis in [\PlanFrame.maxX, \PlanFrame.maxY] { box[keyPath: axis] += margin }
        if box.width < 1 { box.minX -= (1 - box.width) / 2; box.maxX = box.minX + 1 }
        if box.height < 1 { box.minY -= (1 - box.height) / 2; box.maxY = box.minY + 1 }
        self = box
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    public func contains(_ point: FloorPosition) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}
