import Foundation
import Ranging

/// The shading behind the samples on a coverage map: values between sample spots estimated by
/// inverse-distance weighting (each sample weighted by 1/d²), only from samples within `radius`
/// and with no wall between, so the shading neither reaches far from where anyone measured nor
/// leaks through a wall. Cells nothing reaches stay empty (unshaded): not surveyed.
public struct CoverageField: Sendable, Equatable {
    public let frame: PlanFrame
    /// Metres per cell side.
    public let cellSize: Double
    public let columns: Int
    public let rows: Int
    /// Row-major, row 0 at the top (the largest y); nil where no sample reaches.
    public let values: [Double?]

    /// Cells along the longer side: fine enough to look smooth, coarse enough for a small SVG.
    public static let resolution = 64

    public init(points: [(spot: FloorPosition, value: Double)], frame: PlanFrame, walls: [(from: FloorPosition, to: FloorPosition)], radius: Double? = nil) {
        self.frame = frame
        cellSize = max(max(frame.width, frame.height) / Double(Self.resolution), 0.05)
        columns = max(1, Int((frame.width / cellSize).rounded(.up)))
        rows = max(1, Int((frame.height / cellSize).rounded(.up)))
        let reach = radius ?? Self.defaultRadius(points.map(\.spot))
        var values: [Double?] = []
        values.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let centre = FloorPosition(
                    x: frame.minX + (Double(column) + 0.5) * cellSize, y: frame.maxY - (Double(row) + 0.5) * cellSize
                )
                values.append(Self.estimate(at: centre, points: points, walls: walls, radius: reach))
            }
        }
        self.values = values
    }

    public func value(column: Int, row: Int) -> Double? { values[row * columns + column] }

    /// 1.5 times the median distance from a sample to its nearest neighbour, within 1-5 m: samples
    /// taken on a grid shade the whole grid, a lone sample a patch around it. 2 m for one sample.
    public static func defaultRadius(_ spots: [FloorPosition]) -> Double {
        guard spots.count >= 2 else { return 2 }
        let nearest = spots.indices.map { i in
            spots.indices.filter { $0 != i }.map { distance(spots[i], spots[$0]) }.min()!
        }.sorted()
        return min(max(1.5 * nearest[nearest.count / 2], 1), 5)
    }

    static func estimate(at point: FloorPosition, points: [(spot: FloorPosition, value: Double)], walls: [(from: FloorPosition, to: FloorPosition)], radius: Double) -> Double? {
        var weighted = 0.0, weights = 0.0
        for (spot, value) in points {
            let d = distance(point, spot)
            guard d <= radius, !walls.contains(where: { crosses(point, spot, $0.from, $0.to) }) else { continue }
            if d < 1e-9 { return value }
            let weight = 1 / (d * d)
            weighted += weight * value
            weights += weight
        }
        return weights > 0 ? weighted / weights : nil
    }

    static func distance(_ a: FloorPosition, _ b: FloorPosition) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// True when segment p1-p2 meets wall q1-q2, touching included: a line through the corner
    /// where two walls meet is blocked (it would otherwise shade outside the outline).
    static func crosses(_ p1: FloorPosition, _ p2: FloorPosition, _ q1: FloorPosition, _ q2: FloorPosition) -> Bool {
        func side(_ a: FloorPosition, _ b: FloorPosition, _ c: FloorPosition) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        let d1 = side(q1, q2, p1), d2 = side(q1, q2, p2), d3 = side(p1, p2, q1), d4 = side(p1, p2, q2)
        if d1 == 0 && d2 == 0 {
            // Along the wall's line: blocked where the two overlap.
            return min(p1.x, p2.x) <= max(q1.x, q2.x) && min(q1.x, q2.x) <= max(p1.x, p2.x)
                && min(p1.y, p2.y) <= max(q1.y, q2.y) && min(q1.y, q2.y) <= max(p1.y, p2.y)
        }
        return (d1 <= 0 && d2 >= 0 || d1 >= 0 && d2 <= 0) && (d3 <= 0 && d4 >= 0 || d3 >= 0 && d4 <= 0)
    }
}
