import Monitor

/// Enter on a venue's row (`monitor mqtt://BROKER`): every live scanner's reading of the beacon side
/// by side, strongest level first, the one placing it in its room marked `>`. The level is what
/// presence compares: RSSI plus the scanner's offset minus the beacon's power at 1 m.
enum VenueDetailView {
    static let columns: [(heading: String, end: Int)] = [("RSSI", 42), ("LEVEL dB", 52), ("DIST m", 60), ("AGE", 67)]

    static func draw(_ row: BeaconRowModel, _ venue: VenuePlacement, into buffer: inout ScreenBuffer) {
        let separator = buffer.charset.separator
        buffer.fill(y: 1, role: .columnHeader)
        let place = venue.room.map { "in \($0)" } ?? "in no room yet"
        buffer.write(" \(row.displayName)" + separator + row.identity.description + separator + place, x: 0, y: 1, role: .columnHeader)
        buffer.write(" SCANNER", x: 0, y: 2, role: .columnHeader)
        buffer.write("ROOM", x: 20, y: 2, role: .columnHeader)
        for column in columns { buffer.writeRight(column.heading, end: column.end, y: 2, role: .columnHeader) }
        let capacity = max(0, buffer.height - 4)
        for (offset, cell) in venue.scanners.prefix(capacity).enumerated() {
            let y = 3 + offset
            let placing = cell.scanner == venue.scanner && cell.room == venue.room
            let role: StyleRole = placing ? .nearest : .plain
            if placing { buffer.write(">", x: 0, y: y, role: role) }
            buffer.write(cell.scanner, x: 1, y: y, role: role, limit: 18)
            buffer.write(cell.room, x: 20, y: y, role: role, limit: 16)
            buffer.writeRight(CellFormat.fixed(cell.rssi, decimals: 0), end: 42, y: y, role: role)
            buffer.writeRight(CellFormat.fixed(cell.level, decimals: 1), end: 52, y: y, role: role)
            buffer.writeRight(cell.distance.map(CellFormat.metres) ?? "?", end: 60, y: y, role: role)
            buffer.writeRight(CellFormat.age(cell.age), end: 67, y: y, role: role)
        }
        if venue.scanners.isEmpty { buffer.write("  No live scanner hears it.", x: 0, y: 3, role: .muted) }
    }
}
