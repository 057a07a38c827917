/// Turns presence changes into visit events, keeps who is in each room, and totals visits per
/// room for a report. Pure: changes and time go in. A visit runs from the first reading its
/// entry rests on to the last reading of its room (`PresenceChange`), on every way it ends; the
/// events carry when presence decided as `decided`.
public struct VisitTracker: Sendable {
    public struct Totals: Sendable, Equatable {
        public var visits = 0
        /// Seconds.
        public var total = 0.0
        public var longest = 0.0
        /// Visits started in each hour, keyed by the hour's start (Unix seconds, a multiple of 3600).
        public var startsPerHour: [Int: Int] = [:]

        public var mean: Double { visits == 0 ? 0 : total / Double(visits) }

        public init() {}
    }

    public private(set) var totals: [String: Totals] = [:]
    private var open: [String: (room: String, since: Double)] = [:]
    private var occupants: [String: Set<String>] = [:]

    public init() {}

    /// The events a change makes: the exit and completed visit of the room left, the entry of the
    /// room entered.
    public mutating func apply(_ change: PresenceChange) -> [VisitEvent] {
        var events: [VisitEvent] = []
        if let visit = open[change.beacon] {
            events += close(change.beacon, visit: visit, at: change.lastHeardInFrom, decided: change.time)
        }
        if let room = change.to {
            open[change.beacon] = (room, change.firstHeardInTo)
            occupants[room, default: []].insert(change.beacon)
            events.append(VisitEvent(kind: .enter, beacon: change.beacon, room: room, time: change.firstHeardInTo, decided: change.time))
        }
        return events
    }

    /// Ends every open visit (the end of a session): each at the time `lastHeard` gives for its
    /// beacon and room, kept between the visit's start and `time`; at `time` when it gives none.
    public mutating func closeAll(at time: Double, lastHeard: (_ beacon: String, _ room: String) -> Double? = { _, _ in nil }) -> [VisitEvent] {
        var events: [VisitEvent] = []
        for beacon in open.keys.sorted() {
            let visit = open[beacon]!
            let end = lastHeard(beacon, visit.room).map { min(max($0, visit.since), time) } ?? time
            events += close(beacon, visit: visit, at: end, decided: time)
        }
        return events
    }

    /// The room `beacon`'s open visit is in and when it started (its first reading there), if any.
    public func openVisit(of beacon: String) -> (room: String, since: Double)? { open[beacon] }

    /// Visits open now.
    public var openVisits: Int { open.count }

    private mutating func close(_ beacon: String, visit: (room: String, since: Double), at end: Double, decided: Double) -> [VisitEvent] {
        open[beacon] = nil
        occupants[visit.room]?.remove(beacon)
        let time = max(end, visit.since)
        let dwell = time - visit.since
        var totals = self.totals[visit.room, default: Totals()]
        totals.visits += 1
        totals.total += dwell
        totals.longest = max(totals.longest, dwell)
        let hour = Int((visit.since / 3600).rounded(.down)) * 3600
        totals.startsPerHour[hour, default: 0] += 1
        self.totals[visit.room] = totals
        return [
            VisitEvent(kind: .exit, beacon: beacon, room: visit.room, time: time, decided: decided),
            VisitEvent(kind: .visit, beacon: beacon, room: visit.room, time: time, start: visit.since, decided: decided),
        ]
    }

    /// Who is in `room` now.
    public func occupancy(of room: String, at time: Double) -> RoomOccupancy {
        RoomOccupancy(room: room, beacons: (occupants[room] ?? []).sorted(), time: time)
    }

    /// The rooms whose occupancy the events changed, each once, in order.
    public static func roomsTouched(by events: [VisitEvent]) -> [String] {
        var seen = Set<String>()
        return events.compactMap { event in event.kind != .visit && seen.insert(event.room).inserted ? event.room : nil }
    }
}
