/// The dwell report as a table model: one row per exhibit (catalog order first, then other beacons
/// by id), rendered as text, CSV or JSON by pure functions (`DwellReportRenderer`).
public struct DwellReport: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var id: String
        public var name: String
        public var visits: Int
        /// Seconds.
        public var total: Double
        public var mean: Double
        public var longest: Double
    }

    public var title: String?
    public var rows: [Row]

    public init(title: String? = nil, rows: [Row]) {
        self.title = title
        self.rows = rows
    }

    /// Builds the table from tracker totals. Catalog exhibits never visited still get a row (zero
    /// visits is an answer an organiser wants).
    public init(totals: [String: DwellTracker.Totals], catalog: ExhibitCatalog?) {
        var rows: [Row] = []
        var listed = Set<String>()
        for exhibit in catalog?.exhibits ?? [] {
            let t = totals[exhibit.id] ?? DwellTracker.Totals()
            rows.append(Row(id: exhibit.id, name: exhibit.name, visits: t.visits, total: t.total, mean: t.mean, longest: t.longest))
            listed.insert(exhibit.id)
        }
        for id in totals.keys.sorted() where !listed.contains(id) {
            let t = totals[id]!
            rows.append(Row(id: id, name: id, visits: t.visits, total: t.total, mean: t.mean, longest: t.longest))
        }
        self.init(title: catalog?.title, rows: rows)
    }
}
