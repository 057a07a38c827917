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
        let table = readings(venue, width: width, charset: buffer.charset)
        buffer.copyLine(0, of: table, to: y)
        y += 1
        // Every scanner's reading shown under the heading (ScrollWindow): a beacon heard by more
        // scanners than lines lost the rest off the bottom with no sign.
        ScrollWindow.show(contentLines: venue.scanners.count, scroll: scroll, top: y, bottom: buffer.height - 1, into: &buffer) { line, y, buffer in
            buffer.copyLine(line + 1, of: table, to: y)
        }
        if venue.scanners.isEmpty { buffer.write("  No live scanner hears it.", x: 0, y: y, role: .muted) }
    }

    /// The readings table, `width` columns wide: its column heading on line 0, then one line per
    /// scanner, strongest level first, the placing one marked `>` (a device's detail shows it too).
    static func readings(_ venue: VenuePlacement, width: Int, charset: Charset) -> ScreenBuffer {
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

        var canvas = ScreenBuffer(width: width, height: 1 + venue.scanners.count, charset: charset)
        canvas.write(" SCANNER", x: 0, y: 0, role: .columnHeader)
        canvas.write("ROOM", x: roomX, y: 0, role: .columnHeader)
        for (column, end) in zip(columns, ends) { canvas.writeRight(column.heading, end: end, y: 0, role: .columnHeader) }
        for (index, cell) in venue.scanners.enumerated() {
            let line = 1 + index
            let placing = cell.scanner == venue.scanner && cell.room == venue.room
            let role: StyleRole = placing ? .nearest : .plain
            if placing { canvas.write(">", x: 0, y: line, role: role) }
            canvas.write(HealthView.cutInTheMiddle(cell.scanner, width: roomX - 2, charset: charset), x: 1, y: line, role: role)
            canvas.write(HealthView.cutInTheMiddle(cell.room, width: roomWidth, charset: charset), x: roomX, y: line, role: role)
            let values = [CellFormat.fixed(cell.rssi, decimals: 0), CellFormat.fixed(cell.level, decimals: 1),
                          cell.distance.map(CellFormat.metres) ?? "?", CellFormat.age(cell.age)]
            for (value, end) in zip(values, ends) { canvas.writeRight(value, end: end, y: line, role: role) }
        }
        return canvas
    }
}
