import Ranging

/// The monitor's session export (`--export FILE.csv`): every beacon's reading at every tick as one
/// CSV row, so a session opens in a spreadsheet. Units in the column names; an unknown value
/// (a stale beacon's distance) is an empty cell. The monitor writes `header` once, then
/// `rows(for:)` per tick through a `LineFileAppender`.
public enum SessionExport {
    public static let columns = [
        "time", "id", "name", "address", "rssi_dbm", "filtered_rssi_dbm", "distance_m", "distance_low_m", "distance_high_m",
        "proximity", "measured_power_dbm", "measured_power_source", "path_loss_exponent", "packets", "packets_per_second",
        "interval_s", "stale", "nearest",
    ]

    /// The header row.
    public static var header: String { CSVRows(header: columns).string }

    /// One row per beacon of the tick, appended to `rows`.
    public static func append(_ snapshot: RangingSnapshot, to rows: inout CSVRows) {
        for beacon in snapshot.beacons {
            let known = beacon.accuracy >= 0
            rows.number(snapshot.time, decimals: 6)
            rows.text(beacon.id)
            rows.text(beacon.exhibit?.name)
            rows.text(beacon.addressText)
            rows.integer(beacon.rssi)
            rows.number(beacon.filteredRSSI, decimals: 1)
            rows.number(known ? beacon.accuracy : nil, decimals: 2)
            rows.number(beacon.accuracyRange?.lowerBound, decimals: 2)
            rows.number(beacon.accuracyRange?.upperBound, decimals: 2)
            rows.text(beacon.proximity.rawValue)
            rows.number(beacon.measuredPower.dBm, decimals: 1)
            rows.text(beacon.measuredPower.source.rawValue)
            rows.number(beacon.pathLossExponent, decimals: 2)
            rows.integer(beacon.packets)
            rows.number(beacon.packetsPerSecond, decimals: 1)
            rows.number(beacon.advertisingInterval, decimals: 3)
            rows.text(beacon.isStale ? "true" : "false")
            rows.text(beacon.identity == snapshot.nearest ? "true" : "false")
            rows.endRow()
        }
    }

    /// The rows of one tick as text.
    public static func rows(for snapshot: RangingSnapshot) -> String {
        var rows = CSVRows()
        append(snapshot, to: &rows)
        return rows.string
    }
}
