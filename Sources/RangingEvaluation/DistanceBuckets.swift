import Foundation

/// beacontop's distance error and its range's misses sorted by the true distance: where in a
/// venue the errors and the misses sit (docs/ranging-history.md, "Tenth round"). The runs' rig stood at
/// 0.25-3.4 m, so every learned number of the model saw the first three buckets only; the edges
/// are fixed, not chosen on any score.
public struct DistanceBuckets: Sendable {
    /// Upper edges (m) of every bucket but the last: <1, 1-2, 2-3.4, 3.4-7, 7-15, >15 m.
    public static let edges: [Double] = [1, 2, 3.4, 7, 15]

    public struct Bucket: Sendable {
        public var errors: [Double] = []
        public var ranged = 0
        /// The truth below the range's near end, and above its far end.
        public var missedBelow = 0
        public var missedAbove = 0

        public var medianError: Double? { median(errors) }
        public var coverage: Double? { ranged == 0 ? nil : Double(ranged - missedBelow - missedAbove) / Double(ranged) }
        public var belowShare: Double? { ranged == 0 ? nil : Double(missedBelow) / Double(ranged) }
        public var aboveShare: Double? { ranged == 0 ? nil : Double(missedAbove) / Double(ranged) }
    }

    public var buckets = [Bucket](repeating: Bucket(), count: edges.count + 1)

    public init() {}

    public static func index(of truth: Double) -> Int { edges.firstIndex { truth < $0 } ?? edges.count }

    public static func label(_ index: Int) -> String {
        func metres(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        if index == 0 { return "< \(metres(edges[0])) m" }
        if index == edges.count { return "> \(metres(edges[edges.count - 1])) m" }
        return "\(metres(edges[index - 1]))-\(metres(edges[index])) m"
    }

    /// One reading: its distance, and its range when it has one with a positive near end.
    public mutating func add(truth: Double, estimate: Double, range: ClosedRange<Double>?) {
        let i = Self.index(of: truth)
        buckets[i].errors.append(abs(estimate - truth))
        guard let range else { return }
        buckets[i].ranged += 1
        if truth < range.lowerBound { buckets[i].missedBelow += 1 } else if truth > range.upperBound { buckets[i].missedAbove += 1 }
    }

    public mutating func add(_ other: DistanceBuckets) {
        for i in buckets.indices {
            buckets[i].errors += other.buckets[i].errors
            buckets[i].ranged += other.buckets[i].ranged
            buckets[i].missedBelow += other.buckets[i].missedBelow
            buckets[i].missedAbove += other.buckets[i].missedAbove
        }
    }
}
