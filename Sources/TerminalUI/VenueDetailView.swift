import Monitor

/// Enter on a venue's row (`monitor mqtt://BROKER`): every live scanner's reading of the beacon side
/// by side, strongest level first, the one placing it in its room marked `>`. The level is what
/// presence compares: RSSI plus the scanner's offset minus the beacon's power at 1 m.
///
/// The value columns sat at fixed places up to column 67: below that a value was drawn in part
/// (`-3` of `-3.5` at 50 columns) or not at all. Now they leave whole from the right (age, then
/// distance, ...) while the scanner and room keep 10 columns each, and those two share what is left.
enum VenueDetailView {
    /// Each value column's width, its heading and value right-aligned at its end.
    static let columns: [(heading: String, width: Int)] = [("RSSI", 7), ("LEVEL dB", 10), ("DIST m", 8), ("AGE", 7)]
    /// Columns 1-35 from 68 columns: 19 for the scanner (18 and a space), 16 for the room.
    static let widestScanner = 19
    static let widestRoom = 16
    static let narrowestName = 10

    /// `scroll`: lines the readings are scrolled down by, where there are more than lines.
    static func draw(_ row: BeaconRowModel, _ venue: VenuePlacement, scroll: Int = 0, into buffer: inout ScreenBuffer) {
        let separator = buffer.charset.separator
        let width = buffer.width
        let place = venue.room.map { "in \($0)" } ?? "in no room yet"
        var y = 1
        // Name, room and id on as many lines as they take (two at most), as the detail pane's heading;
        // the room before the id, which a narrow screen gives a line of its own.
        for line in DetailView.flow([row.displayName, place, row.identity.description], separator: separator, width: width - 1, charset: buffer.charset).prefix(2) {
            buffer.fill(y: y, role: .columnHeader)
            buffer.write(" " + HealthView.cutInTheMiddle(line, width: width - 1, charset: buffer.charset), x: 0, y: y, role: .columnHeader)
            y += 1
        }
        var kept = 0
        var valuesWidth = 0
        while kept < columns.count, 1 + 2 * narrowestName + valuesWidth + columns[kept].width <= width {
            valuesWidth += columns[kept].width
            kept += 1
        }
        let names = min(widestScanner + widestRoom, width - 1 - valuesWidth)
        let scannerWidth = names == widestScanner + widestRoom ? widestScanner : (names + 1) / 2
        let roomX = 1 + scannerWidth
        let roomWidth = names - scannerWidth
        var ends: [Int] = []
        for column in columns.prefix(kept) { ends.append((ends.last ?? names) + column.width) }

        buffer.write(" SCANNER", x: 0, y: y, role: .columnHeader)
        buffer.write("ROOM", x: roomX, y: y, role: .columnHeader)
        for (column, end) in zip(columns, ends) { buffer.writeRight(column.heading, end: end, y: y, role: .columnHeader) }
        y += 1
        // Every scanner's reading on a canvas shown under the heading (ScrollWindow): a beacon heard
        // by more scanners than lines lost the rest off the bottom with no sign.
        var canvas = ScreenBuffer(width: width, height: venue.scanners.count, charset: buffer.charset)
        for (line, cell) in venue.scanners.enumerated() {
            let placing = cell.scanner == venue.scanner && cell.room == venue.room
            let role: StyleRole = placing ? .nearest : .plain
            if placing { canvas.write(">", x: 0, y: line, role: role) }
            canvas.write(HealthView.cutInTheMiddle(cell.scanner, width: roomX - 2, charset: canvas.charset), x: 1, y: line, role: role)
            canvas.write(HealthView.cutInTheMiddle(cell.room, width: roomWidth, charset: canvas.charset), x: roomX, y: line, role: role)
            let values = [CellFormat.fixed(cell.rssi, decimals: 0), CellFormat.fixed(cell.level, decimals: 1),
                          cell.distance.map(CellFormat.metres) ?? "?", CellFormat.age(cell.age)]
            for (value, end) in zip(values, ends) { canvas.writeRight(value, end: end, y: line, role: role) }
        }
        ScrollWindow.show(canvas, contentLines: venue.scanners.count, scroll: scroll, top: y, bottom: buffer.height - 1, into: &buffer)
        if venue.scanners.isEmpty { buffer.write("  No live scanner hears it.", x: 0, y: y, role: .muted) }
    }
}
