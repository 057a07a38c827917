/// The live table's columns and which to drop first on narrow terminals.
///
/// Drop order (first dropped first): measured power, accuracy range, packets/s, sparkline, age. The
/// name, RSSI, accuracy and proximity class always stay: they are what a technician tunes by and what
/// a visitor reads. At the 40-column minimum the table is name (10 columns), RSSI, accuracy, proximity and age.
enum TableColumn: CaseIterable {
    case name, rssi, history, accuracy, range, proximity, measuredPower, packets, age
    /// A venue's rows (`monitor mqtt://BROKER`): the room and the scanner placing the beacon there,
    /// and the runner-up from another room. They take the places of range, TX@1m and PKT/s, which
    /// a scanner's message does not carry.
    case room, runnerUp

    /// The columns of a radio's table, or of a venue's.
    static func all(venue: Bool) -> [TableColumn] {
        venue ? [.name, .room, .rssi, .history, .accuracy, .runnerUp, .proximity, .age]
              : [.name, .rssi, .history, .accuracy, .range, .proximity, .measuredPower, .packets, .age]
    }

    var heading: String {
        switch self {
        case .name: "NAME"
        case .rssi: "RSSI"
        case .history: "HISTORY"
        case .accuracy: "DIST m"
        case .range: "RANGE"
        case .proximity: "PROXIMITY"
        case .measuredPower: "TX@1m"
        case .packets: "PKT/s"
        case .age: "AGE"
        case .room: "ROOM (SCANNER)"
        case .runnerUp: "RUNNER-UP"
        }
    }

    /// Fixed width; `name` and `history` have minimums and grow.
    var width: Int {
        switch self {
        case .name: 10
        case .rssi: 4
        case .history: 10
        case .accuracy: 6
        case .range: 9
        case .proximity: 9
        case .measuredPower: 5
        case .packets: 5
        case .age: 5
        case .room: 20
        case .runnerUp: 14
        }
    }

    var rightAligned: Bool {
        switch self {
        case .name, .history, .proximity, .range, .room, .runnerUp: false
        default: true
        }
    }

    static let dropOrder: [TableColumn] = [.measuredPower, .range, .packets, .runnerUp, .history, .age]
}

/// The columns that fit a width, with their positions.
struct TableLayout: Equatable {
    struct Placed: Equatable {
        var column: TableColumn
        var x: Int
        var width: Int
    }

    /// One column at the left edge marks the nearest exhibit's row.
    static let markerWidth = 1
    static let nameMaximum = 32
    static let historyMaximum = 30
    /// The narrowest a venue's room column gets (40 columns: `booth-101` as `bo…101`).
    static let roomMinimum = 6
    /// Below this the room column holds the room alone, headed `ROOM`.
    static let roomWithScanner = 14

    let columns: [Placed]

    /// The sparkline columns a long name may not take: a trend still reads in 20.
    static let historyKept = 20

    /// `longestName`: the widest name the rows show, so a name longer than `nameMaximum` can take
    /// the columns left over at the right edge (at 120 columns `Harrison's H4 Chronometer
    /// (replica)` was cut to `(repl…` with 6 unused), then the sparkline's beyond `historyKept`.
    init(width: Int, venue: Bool = false, longestName: Int = 0) {
        var kept = TableColumn.all(venue: venue)
        func needed(_ columns: [TableColumn]) -> Int {
            Self.markerWidth + columns.reduce(0) { $0 + $1.width } + (columns.count - 1)
        }
        for candidate in TableColumn.dropOrder where needed(kept) > width {
            kept.removeAll { $0 == candidate }
        }
        var widths: [TableColumn: Int] = [:]
        for column in kept { widths[column] = column.width }
        // A venue's columns that always stay (name, room, RSSI, distance, proximity) need 54: below
        // that the room column narrows, to the room alone (TableView), rather than the distance and
        // the proximity running off the edge ('RSSI DI' at 40 columns, 'unkno' at 50).
        if kept.contains(.room), needed(kept) > width {
            widths[.room] = max(Self.roomMinimum, TableColumn.room.width - (needed(kept) - width))
        }
        var spare = max(0, width - (Self.markerWidth + kept.reduce(0) { $0 + widths[$1]! } + kept.count - 1))
        let nameGrowth = min(spare, Self.nameMaximum - TableColumn.name.width)
        widths[.name, default: 0] += nameGrowth
        spare -= nameGrowth
        if widths[.history] != nil {
            let growth = min(spare, Self.historyMaximum - TableColumn.history.width)
            widths[.history, default: 0] += growth
            spare -= growth
        }
        // A name longer than its column takes the columns left over, then the sparkline's beyond 20.
        if let name = widths[.name] {
            let leftOver = min(max(0, longestName - name), spare)
            let fromHistory = min(max(0, longestName - name - leftOver), max(0, widths[.history, default: 0] - Self.historyKept))
            if fromHistory > 0 { widths[.history]! -= fromHistory }
            widths[.name] = name + leftOver + fromHistory
        }
        var x = Self.markerWidth
        var placed: [Placed] = []
        for column in kept {
            let w = widths[column]!
            placed.append(Placed(column: column, x: x, width: w))
            x += w + 1
        }
        columns = placed
    }

    func contains(_ column: TableColumn) -> Bool { columns.contains { $0.column == column } }
}
