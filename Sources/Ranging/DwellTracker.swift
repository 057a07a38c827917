/// Visits and dwell time per exhibit, from the sequence of `nearest` values at each tick: a visit
/// to X starts at the first tick X is nearest and ends at the first tick it is not (the visitor
/// moved to another exhibit, or none is near). A gap with nobody nearest that lasts at most
/// `resumeWithin` seconds and ends with X nearest again is part of the same visit: shadowing that
/// pushes a standing visitor's estimate past the floor distance for a few seconds is not a
/// departure and a return (the same idea as CoreLocation's region exit delay). The exhibition-hall
/// figures: foot traffic (visits) and time spent (total, mean, longest) per booth.
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
    /// The longest gap (s) with nobody nearest that a visit survives when its exhibit comes back.
    public var resumeWithin: Double
    private var current: (id: String, since: Double)?
    /// When nobody became nearest during the current visit: the visit's end unless it resumes.
    private var absentSince: Double?

    public init(resumeWithin: Double = 0) {
        self.resumeWithin = resumeWithin
    }

    /// Feeds the nearest exhibit id (or nil) at a tick.
    public mutating func update(nearest: String?, at time: Double) {
        if let visit = current, let left = absentSince {
            if nearest == visit.id, time - left <= resumeWithin {
                absentSince = nil
                return
            }
            if nearest == nil, time - left <= resumeWithin { return }
            close(at: left)
        } else if let visit = current {
            if visit.id == nearest { return }
            if nearest == nil, resumeWithin > 0 {
                absentSince = time
                return
            }
            close(at: time)
        }
        if let nearest { current = (nearest, time) }
    }

    /// The totals with the visit in progress counted up to `time` (up to when nobody became
    /// nearest, if it has not resumed).
    public func totals(at time: Double) -> [String: Totals] {
        var copy = self
        copy.close(at: absentSince.map { min($0, time) } ?? time)
        return copy.totals
    }

    private mutating func close(at time: Double) {
        guard let visit = current else { return }
        totals[visit.id, default: Totals()].add(max(0, time - visit.since))
        current = nil
        absentSince = nil
    }

    public static func == (lhs: DwellTracker, rhs: DwellTracker) -> Bool {
        lhs.totals == rhs.totals && lhs.resumeWithin == rhs.resumeWithin && lhs.absentSince == rhs.absentSince
            && lhs.current?.id == rhs.current?.id && lhs.current?.since == rhs.current?.since
    }
}
