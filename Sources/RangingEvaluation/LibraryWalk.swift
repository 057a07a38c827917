import Foundation

/// The labelled walk of the UCI "BLE RSSI Dataset for Indoor localization and Navigation"
/// (Mohammadi, Al-Fuqaha et al., Western Michigan University's Waldo Library; 13 iBeacons
/// b3001-b3013; `Tests/LibraryWalk/iBeacon_RSSI_Labeled.csv`, its README says where it came from):
/// one row about every 2 s, the grid cell a person stood in and the RSSI the phone read from each
/// beacon. The "real walk with labelled positions".
public struct LibraryWalk: Sendable {
    /// A floor cell: letter = column, number = row, 10 ft (3.048 m) square.
    public struct Cell: Sendable, Hashable, CustomStringConvertible {
        public var column: Int
        public var row: Int

        public init(column: Int, row: Int) { self.column = column; self.row = row }

        /// "J04" -> column 9 (A = 0), row 4.
        public init?(_ label: Substring) {
            guard let letter = label.first?.asciiValue, (65...90).contains(letter), let row = Int(label.dropFirst()) else { return nil }
            self.init(column: Int(letter) - 65, row: row)
        }

        public var description: String {
            String(UnicodeScalar(UInt8(65 + column))) + (row < 10 ? "0" : "") + String(row)
        }

        /// Squared distance in cells: exact, so ties between beacons are exact too.
        func squaredDistance(to other: Cell) -> Int {
            (column - other.column) * (column - other.column) + (row - other.row) * (row - other.row)
        }
    }

    public struct Row: Sendable {
        /// Seconds on the recording day's clock (see `LibraryWalk.init` for minute-only times).
        public var time: Double
        public var cell: Cell
        /// RSSI per beacon (index 0 = b3001), nil when not heard.
        public var rssi: [Int?]
        /// The row's line in the file (the header is line 1).
        public var line: Int
    }

    /// One recording day, rows in time order.
    public struct Session: Sendable {
        public var day: String
        public var rows: [Row]
    }

    public static let cellSize = 3.048
    public static let beaconNames = (3001...3013).map { "b\($0)" }

    /// Beacon cells as several public scripts for this dataset give them (read_file id 6669409680
    /// in the tool library; `Tests/LibraryWalk/README.md`).
    public static let beaconCells: [Cell] = ["F09", "J04", "N04", "S04", "J07", "N07", "S07", "J10", "D15", "J15", "N15", "R15", "W15"]
        .map { Cell($0[...])! }
    /// The other table some scripts give: b3004 and b3007 one column to the left (R04, R07).
    public static let beaconCellsShifted: [Cell] = beaconCells.enumerated().map { index, cell in
        index == 3 || index == 6 ? Cell(column: cell.column - 1, row: cell.row) : cell
    }

    public var sessions: [Session]

    public var rowCount: Int { sessions.reduce(0) { $0 + $1.rows.count } }

    /// Reads the file. A value below -127 dBm is "not heard": the file writes -200 for that, and a
    /// few rows carry -198 or -199 beside a heard beacon, which no receiver reports (HCI's RSSI is a
    /// signed byte, -127 dBm at the lowest). Rows are newest first in the file; each day is one
    /// session. Three days give only hours and minutes: the rows of one minute (in file order) are
    /// spread evenly over it, the least that can be assumed of a phone that logged them in order.
    public init(csv text: String) throws {
        var byDay: [(day: String, rows: [(minute: Int, seconds: Int?, cell: Cell, rssi: [Int?], line: Int)])] = []
        for (offset, line) in text.split(whereSeparator: \.isNewline).enumerated() where offset > 0 {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let number = offset + 1
            guard fields.count == 15, let cell = Cell(fields[0]) else { throw LibraryWalkError(line: number, problem: "expected location,date and 13 RSSI values") }
            let stamp = fields[1].split(separator: " ")
            let clock = stamp.count == 2 ? stamp[1].split(separator: ":").compactMap { Int($0) } : []
            guard stamp.count == 2, clock.count == 2 || clock.count == 3 else { throw LibraryWalkError(line: number, problem: "date \(fields[1]) is not M-D-YYYY H:MM[:SS]") }
            var rssi: [Int?] = []
            for field in fields[2...] {
                guard let value = Int(field.trimmingCharacters(in: .whitespaces)) else { throw LibraryWalkError(line: number, problem: "RSSI \(field) is not a number") }
                rssi.append(value < -127 ? nil : value)
            }
            let day = String(stamp[0])
            let row = (minute: clock[0] * 60 + clock[1], seconds: clock.count == 3 ? clock[2] : nil, cell: cell, rssi: rssi, line: number)
            if byDay.last?.day == day { byDay[byDay.count - 1].rows.append(row) } else { byDay.append((day, [row])) }
        }
        sessions = byDay.map { day, newestFirst in
            let ordered = Array(newestFirst.reversed())
            var rows: [Row] = []
            var index = 0
            while index < ordered.count {
                var end = index + 1
                if ordered[index].seconds == nil {
                    while end < ordered.count, ordered[end].seconds == nil, ordered[end].minute == ordered[index].minute { end += 1 }
                }
                for (k, row) in ordered[index..<end].enumerated() {
                    let seconds = row.seconds.map(Double.init) ?? (Double(k) + 0.5) * 60 / Double(end - index)
                    rows.append(Row(time: Double(row.minute * 60) + seconds, cell: row.cell, rssi: row.rssi, line: row.line))
                }
                index = end
            }
            // The file's order is kept where two rows share a time (stable sort).
            let sorted = rows.enumerated().sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }.map(\.element)
            return Session(day: day, rows: sorted)
        }
    }

    public init(contentsOf url: URL) throws {
        try self.init(csv: String(contentsOf: url, encoding: .utf8))
    }

    /// The beacons geometrically nearest the cell's centre (several when equidistant), lowest
    /// index first.
    public static func nearestBeacons(to cell: Cell, cells: [Cell] = beaconCells) -> [Int] {
        let distances = cells.map { $0.squaredDistance(to: cell) }
        let least = distances.min()!
        return distances.indices.filter { distances[$0] == least }
    }

    /// The row's strongest beacons (several on equal RSSI), lowest index first; empty when nothing
    /// was heard.
    public static func strongest(_ row: Row) -> [Int] {
        guard let most = row.rssi.compactMap({ $0 }).max() else { return [] }
        return row.rssi.indices.filter { row.rssi[$0] == most }
    }
}

public struct LibraryWalkError: Error, CustomStringConvertible {
    public var line: Int
    public var problem: String
    public var description: String { "library walk line \(line): \(problem)" }
}
