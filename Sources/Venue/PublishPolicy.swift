/// When a scanner agent publishes a beacon: at most every `interval` seconds, sooner when its
/// distance has moved by more than `distanceStep` metres since the last message (someone walking
/// away is news; the same reading again is not), and never twice within `minimumGap`.
/// ESPresense's nodes follow the same idea (`skip_ms`, `skip_distance`), so a venue mixing both
/// sees similar rates from each. Pure: time is an argument.
public struct PublishPolicy: Sendable, Equatable {
    public var interval: Double
    public var distanceStep: Double
    public var minimumGap: Double
    private var last: [String: (time: Double, distance: Double?)] = [:]

    /// 1 s and 0.5 m (ESPresense's firmware: 5 s and 0.5 m, `skip_ms`, `skip_distance`); at most 10
    /// messages a second per beacon. The agent asks at each ranging tick, so an earlier message
    /// for a move comes only when the interval is longer than the tick.
    public init(interval: Double = 1, distanceStep: Double = 0.5, minimumGap: Double = 0.1) {
        self.interval = interval
        self.distanceStep = distanceStep
        self.minimumGap = minimumGap
    }

    /// True when `beacon`, now at `distance` (nil: unknown), is due at `time`; records it as
    /// published when it is.
    public mutating func shouldPublish(beacon: String, distance: Double?, at time: Double) -> Bool {
        guard let previous = last[beacon] else {
            last[beacon] = (time, distance)
            return true
        }
        // Ticks fall on multiples of the tick interval, but at today's epoch (1.8e9 s) a Double's
        // step is 2.4e-7 s: two ticks 0.1 s apart can be 0.09999990 s apart, which skipped every
        // other tick at --publish-interval 0.1 (6 messages a second per beacon, not 10). A
        // millisecond's slack is far below any interval allowed (0.1 s).
        let elapsed = time - previous.time + Self.slack
        var due = elapsed >= interval || elapsed < 0
        if !due, elapsed >= minimumGap, let distance, let before = previous.distance {
            due = abs(distance - before) > distanceStep
        }
        if due { last[beacon] = (time, distance) }
        return due
    }

    /// Forgets beacons last published before `time` (the agent calls this for beacons it no longer
    /// hears, so memory follows the beacons in range).
    public mutating func forget(before time: Double) {
        last = last.filter { $0.value.time >= time }
    }

    static let slack = 0.001

    public var tracked: Int { last.count }

    public static func == (lhs: PublishPolicy, rhs: PublishPolicy) -> Bool {
        lhs.interval == rhs.interval && lhs.distanceStep == rhs.distanceStep && lhs.minimumGap == rhs.minimumGap
            && lhs.last.count == rhs.last.count
            && lhs.last.allSatisfy { key, value in rhs.last[key].map { $0.time == value.time && $0.distance == value.distance } ?? false }
    }
}
