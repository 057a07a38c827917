import Ranging

/// The survey's sample table (`survey --report`): one row per beacon heard per sample, with the
/// spot's coverage beside it, so every number behind the maps can be checked in a spreadsheet. A
/// sample where nothing was heard is one row with the beacon columns empty.
public enum SurveyCSV {
    public static let columns = [
        "sample", "x_m", "y_m", "start", "end", "id", "name", "packets", "median_dbm", "p10_dbm", "p90_dbm",
        "measured_power_dbm", "path_loss_exponent", "distance_m", "level_db", "spot_status", "spot_nearest",
    ]

    public static func csv(_ session: SurveySession, rule: CoverageRule = CoverageRule()) -> String {
        var rows = CSVRows(header: columns)
        for (sample, coverage) in zip(session.samples, session.coverage(rule: rule)) {
            let readings: [SpotReading?] = sample.readings.isEmpty ? [nil] : sample.readings
            for reading in readings {
                rows.integer(sample.index)
                rows.number(sample.x, decimals: 2)
                rows.number(sample.y, decimals: 2)
                rows.number(sample.start, decimals: 3)
                rows.number(sample.end, decimals: 3)
                rows.text(reading?.id)
                rows.text(reading.flatMap { session.plan.beacon(id: $0.id)?.name })
                rows.integer(reading?.packets)
                rows.number(reading?.median, decimals: 1)
                rows.number(reading?.low, decimals: 1)
                rows.number(reading?.high, decimals: 1)
                rows.number(reading?.measuredPower, decimals: 1)
                rows.number(reading?.exponent, decimals: 2)
                rows.number(reading?.distance, decimals: 2)
                rows.number(reading.map(rule.level), decimals: 1)
                rows.text(coverage.status.rawValue)
                rows.text(coverage.nearest)
                rows.endRow()
            }
        }
        return rows.string
    }
}
