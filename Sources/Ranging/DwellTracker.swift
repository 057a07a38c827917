/// Visits and dwell time per exhibit, from the sequence of `nearest` values at each tick: a visit
/// to X starts at the first tick X is nearest and ends at the first tick it is not (the visitor
/// moved to another exhibit, or none is near). The exhibition-hall figures: foot traffic (visits)
/// and time spent (total, mean, longest) per booth.
public struct DwellTracker: Sendable, Equatable {
    public struct Totals: Sendable, Equatable {
        public var visits = 0
        public var total = 0.0
        public var longest = 0.0

        public var mean: Double { visits == 0 ? 0 : total / Double(visits) }

        public init(visits: Int = 0, total: Double = 0, longest: Double = 0) {
            self.visits = visits
            self.total = total
            self.longest = longest
        }

        mutating func add(_ duration: Double) {
            visits += 1
            total += duration
            longest = max(longest, duration)
        }
    }

    public private(set) var totals: [String: Totals] = [:]
    private var current: (id: String, since: Double)?

    public init() {}

    /// Feeds the nearest exhibit id (or nil) at a tick.
    public mutating func update(nearest: String?, at time: Double) {
        if let visit = current, visit.id == nearest { return }
        close(at: time)
        if let nearest { current = (nearest, time) }
    }

    /// The totals with the visit in progress counted up to `time`.
    public func totals(at time: Double) -> [String: Totals] {
        var copy = self
        copy.close(at: time)
        return copy.totals
    }

    private mutating func close(at time: Double) {
        guard let visit = current else { return }
        totals[visit.id, default: Totals()].add(max(0, time - visit.since))
        current = nil
    }

    public static func == (lhs: DwellTracker, rhs: DwellTracker) -> Bool {
        lhs.totals == rhs.totals && lhs.current?.id == rhs.current?.id && lhs.current?.since == rhs.current?.since
    }
}
