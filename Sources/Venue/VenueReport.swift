import NDJSON
import Ranging

/// Per-room (per-booth) figures for a recorded venue session: visits, total and mean dwell, the
/// longest visit, and foot traffic per hour. Catalog rooms never visited still get a row.
public struct VenueReport: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var room: String
        public var name: String
        public var visits: Int
        /// Seconds.
        public var totalDwell: Double
        public var meanDwell: Double
        public var longest: Double
        /// Visits started in each clock hour of the session, oldest first: (hour start, visits).
        public var hourly: [(hour: Int, visits: Int)]

        public static func == (lhs: Row, rhs: Row) -> Bool {
            lhs.room == rhs.room && lhs.name == rhs.name && lhs.visits == rhs.visits && lhs.totalDwell == rhs.totalDwell
                && lhs.meanDwell == rhs.meanDwell && lhs.longest == rhs.longest
                && lhs.hourly.map(\.hour) == rhs.hourly.map(\.hour) && lhs.hourly.map(\.visits) == rhs.hourly.map(\.visits)
        }
    }

    public var title: String?
    public var start: Double
    public var end: Double
    public var rows: [Row]

    /// Visits per hour of the session for `row` (visits / session hours), or nil when the session
    /// spans less than `minimumRateSpan`: a 2-minute recording with 33 visits is not "990 visits an
    /// hour", and a backend reading the rate would take it for one (the visits count still stands).
    public func footTrafficPerHour(_ row: Row) -> Double? {
        let span = end - start
        guard span.isFinite, span >= Self.minimumRateSpan else { return nil }
        return Double(row.visits) / (span / 3600)
    }

    /// One hour: the shortest session whose visits per hour is a count, not an extrapolation.
    public static let minimumRateSpan = 3600.0

    /// The most clock hours a row's `hourly` lists one by one (31 days): a session spanning more
    /// lists only the hours in which visits started. A recording joined across a clock set years
    /// ahead spans decades (fuzz-venue-recording: a 4 KB recording from 1970 to 2199 made 2 million
    /// hours per room, a 62 MB `report --json` in 19 s); a real fair, museum day or month-long
    /// exhibition stays under it.
    public static let longestHourlySeries = 31 * 24

    /// - Parameters: `start`, `end`: the session's span (Unix seconds); hours between them with no
    ///   visit still appear with zero, up to `longestHourlySeries` hours.
    public init(totals: [String: VisitTracker.Totals], catalog: ExhibitCatalog?, start: Double, end: Double) {
        title = catalog?.title
        self.start = start
        self.end = end
        let firstHour = Int((start / 3600).rounded(.down)) * 3600
        let lastHour = Int((max(start, end) / 3600).rounded(.down)) * 3600
        func row(_ room: String, _ name: String) -> Row {
            let t = totals[room] ?? VisitTracker.Totals()
            let hourly = (lastHour - firstHour) / 3600 < Self.longestHourlySeries
                ? stride(from: firstHour, through: lastHour, by: 3600).map { ($0, t.startsPerHour[$0] ?? 0) }
                : t.startsPerHour.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return Row(room: room, name: name, visits: t.visits, totalDwell: t.total, meanDwell: t.mean, longest: t.longest, hourly: hourly)
        }
        var rows: [Row] = []
        var listed = Set<String>()
        for room in catalog?.rooms ?? [] {
            rows.append(row(room.id, room.name))
            listed.insert(room.id)
        }
        for room in totals.keys.sorted() where !listed.contains(room) {
            rows.append(row(room, room))
        }
        self.rows = rows
    }

    /// `{"title":…,"start":…,"end":…,"rooms":[{"room":…,"name":…,"visits":…,"totalDwell":…,
    /// "meanDwell":…,"longest":…,"visitsPerHour":…|null,"hourly":[{"hour":…,"visits":…}]}]}`
    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"title\":")
        if let title { w.string(title) } else { w.null() }
        w.raw(",\"start\":")
        w.number(start, decimals: 3, keepPoint: true)
        w.raw(",\"end\":")
        w.number(end, decimals: 3, keepPoint: true)
        w.raw(",\"rooms\":[")
        for (index, row) in rows.enumerated() {
            if index > 0 { w.raw(",") }
            w.raw("{\"room\":")
            w.string(row.room)
            w.raw(",\"name\":")
            w.string(row.name)
            w.raw(",\"visits\":")
            w.integer(row.visits)
            w.raw(",\"totalDwell\":")
            w.number(row.totalDwell, decimals: 1)
            w.raw(",\"meanDwell\":")
            w.number(row.meanDwell, decimals: 1)
            w.raw(",\"longest\":")
            w.number(row.longest, decimals: 1)
            w.raw(",\"visitsPerHour\":")
            if let rate = footTrafficPerHour(row) { w.number(rate, decimals: 2) } else { w.null() }
            w.raw(",\"hourly\":[")
            for (position, hour) in row.hourly.enumerated() {
                if position > 0 { w.raw(",") }
                w.raw("{\"hour\":")
                w.integer(hour.hour)
                w.raw(",\"visits\":")
                w.integer(hour.visits)
                w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]}")
        return Array(w.bytes)
    }
}
