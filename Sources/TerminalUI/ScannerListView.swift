import Monitor

/// `n`: a venue's scanners (`monitor mqtt://BROKER`), one line each: its room, whether it is alive
/// (online and heard within its silence limit; `offline` when it said so or its will did, `silent`
/// when it just stopped; `no radio` when it is online but its telemetry says its controller is
/// gone, so it hears nothing: 8 cells, the most that leaves a gap before a 4-cell age), the last message's age, messages a second, its clock offset (receive
/// time minus its own time, delivery delay included) and its RSSI offset with where it came from.
enum ScannerListView {
    /// Right-aligned columns end at `x`. The offset and its source (`-3.5 (catalog)`) end at the
    /// 80-column edge: they ended at 75 and ran 10 cells past it, cut to `-3.5 (cat`.
    static let columns: [(heading: String, x: Int, right: Bool)] = [
        ("SCANNER", 1, false), ("ROOM", 18, false), ("STATE", 35, false), ("LAST", 48, true), ("MSG/s", 55, true),
        ("CLOCK s", 63, true), ("OFFSET dB", 79, true),
    ]
    static let clockEnd = 63
    static let offsetEnd = 79

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        buffer.fill(y: 1, role: .columnHeader)
        // A right-aligned column that does not end on screen is left out whole (at 60 columns the
        // clock and the offset), never drawn as a cut heading over missing values.
        for column in columns where !column.right || column.x <= buffer.width {
            if column.right {
                buffer.writeRight(column.heading, end: column.x, y: 1, role: .columnHeader)
            } else {
                buffer.write(column.heading, x: column.x, y: 1, role: .columnHeader)
            }
        }
        if model.scanners.isEmpty {
            buffer.writeWrapped("No scanners heard yet (the scanner list is a venue's: monitor mqtt://BROKER).", x: 2, y: 2, lines: max(1, buffer.height - 3), role: .muted)
            return
        }
        let capacity = max(0, buffer.height - 3)
        for (offset, scanner) in model.scanners.prefix(capacity).enumerated() {
            let y = 2 + offset
            let hearing = scanner.alive && scanner.radioLost == nil
            let state = scanner.alive ? (hearing ? "online" : "no radio") : scanner.declaredOnline == false ? "offline" : "silent"
            let role: StyleRole = hearing ? .plain : .warning
            buffer.write(scanner.name, x: 1, y: y, role: role, limit: 16)
            buffer.write(scanner.room, x: 18, y: y, role: .plain, limit: 16)
            buffer.write(state, x: 35, y: y, role: hearing ? .immediate : .warning)
            buffer.writeRight(scanner.secondsSinceHeard.map(CellFormat.age) ?? "-", end: 48, y: y, role: .plain)
            buffer.writeRight(scanner.messagesPerSecond.map { CellFormat.fixed($0, decimals: 1) } ?? "-", end: 55, y: y, role: .plain)
            if clockEnd <= buffer.width {
                buffer.writeRight(scanner.clockOffset.map(CellFormat.offset) ?? "-", end: clockEnd, y: y, role: .plain)
            }
            if offsetEnd <= buffer.width {
                let source = scanner.offsetSource == "none" ? "" : " (\(scanner.offsetSource))"
                buffer.writeRight(CellFormat.fixed(scanner.offset, decimals: 1) + source, end: offsetEnd, y: y, role: .plain)
            }
        }
    }
}
