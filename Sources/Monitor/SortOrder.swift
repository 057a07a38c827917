import BeaconFormats

/// The table's sort order, cycled by `s`. Distance (nearest first) is the default: the table then reads
/// like CoreLocation's ranged-beacons list, whose first beacon is its closest: here the nearest
/// exhibit (the `>` row), then the rest by distance, as the engine orders a tick.
public enum SortOrder: String, Sendable, CaseIterable {
    case distance, rssi, name, id

    public var next: SortOrder {
        let all = SortOrder.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Sorts rows; ties keep the adapter's order so rows do not jump between frames. Keys are computed
    /// once per row (decorate-sort), since building id strings inside the comparator would dominate a
    /// 500-beacon frame.
    public func sorted(_ rows: [BeaconRowModel], nearest: BeaconIdentity? = nil) -> [BeaconRowModel] {
        switch self {
        case .distance:
            let keys = rows.map { ($0.identity == nearest ? -.infinity : $0.accuracy ?? .infinity, $0.proximity) }
            return reorder(rows) { a, b in
                keys[a].0 != keys[b].0 ? keys[a].0 < keys[b].0 : keys[a].1 < keys[b].1
            }
        case .rssi:
            let keys = rows.map { $0.rssi ?? Int.min }
            return reorder(rows) { keys[$0] > keys[$1] }
        case .name:
            let keys = rows.map { $0.displayName.lowercased() }
            return reorder(rows) { keys[$0] < keys[$1] }
        case .id:
            let keys = rows.map { $0.identity.description }
            return reorder(rows) { keys[$0] < keys[$1] }
        }
    }

    private func reorder(_ rows: [BeaconRowModel], by less: (Int, Int) -> Bool) -> [BeaconRowModel] {
        let order = rows.indices.sorted { a, b in less(a, b) || (!less(b, a) && a < b) }
        return order.map { rows[$0] }
    }
}
