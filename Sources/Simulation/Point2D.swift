#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point or direction on the floor plan, in metres (x to the east, y to the north), as the
/// exhibit catalog's `position: [x, y]` gives it.
public struct Point2D: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point2D(0, 0)

    public static func + (a: Point2D, b: Point2D) -> Point2D { Point2D(a.x + b.x, a.y + b.y) }
    public static func - (a: Point2D, b: Point2D) -> Point2D { Point2D(a.x - b.x, a.y - b.y) }
    public static func * (a: Point2D, k: Double) -> Point2D { Point2D(a.x * k, a.y * k) }

    public var length: Double { (x * x + y * y).squareRoot() }

    public func distance(to other: Point2D) -> Double { (self - other).length }

    /// The unit vector in this direction; nil for a (near) zero vector, which has none.
    public var unit: Point2D? {
        let l = length
        return l < 1e-9 ? nil : Point2D(x / l, y / l)
    }

    public func dot(_ other: Point2D) -> Double { x * other.x + y * other.y }

    /// This direction turned counter-clockwise by `radians`.
    public func rotated(by radians: Double) -> Point2D {
        let c = cos(radians), s = sin(radians)
        return Point2D(x * c - y * s, x * s + y * c)
    }

    /// Compass-free bearing in degrees, counter-clockwise from the x axis, in (-180, 180].
    public var angleDegrees: Double { atan2(y, x) * 180 / Double.pi }

    public var description: String { "(\(x), \(y))" }
}
