import Simulation

/// A venue of equal square rooms in a grid (a museum wing, a row of booths), one scanner per room
/// hung from the ceiling somewhere near the room's middle. Walls between rooms attenuate.
public struct VenueFloorPlan: Sendable {
    public let columns: Int
    public let rows: Int
    /// Metres along each side of a room.
    public let roomSize: Double

    public init(columns: Int, rows: Int, roomSize: Double) {
        self.columns = columns
        self.rows = rows
        self.roomSize = roomSize
    }

    public var roomCount: Int { columns * rows }

    public func roomName(_ index: Int) -> String { "room-\(index + 1)" }

    /// The room a point is in (points outside are clamped to the nearest room).
    public func room(at point: Point2D) -> Int {
        let column = min(columns - 1, max(0, Int(point.x / roomSize)))
        let row = min(rows - 1, max(0, Int(point.y / roomSize)))
        return row * columns + column
    }

    public func centre(of room: Int) -> Point2D {
        Point2D((Double(room % columns) + 0.5) * roomSize, (Double(room / columns) + 0.5) * roomSize)
    }

    /// Walls a straight path between two rooms crosses, at least (grid steps).
    public func walls(between a: Int, and b: Int) -> Int {
        abs(a % columns - b % columns) + abs(a / columns - b / columns)
    }

    /// A uniformly drawn point inside `room`, `margin` metres clear of its walls.
    public func point(in room: Int, margin: Double, rng: inout SplitMix64) -> Point2D {
        let corner = centre(of: room) - Point2D(roomSize / 2, roomSize / 2)
        return corner + Point2D(margin + rng.unit() * (roomSize - 2 * margin), margin + rng.unit() * (roomSize - 2 * margin))
    }
}
