import Monitor

/// `n`: a venue's scanners (`monitor mqtt://BROKER`), one line each: its room, whether it is alive
/// (online and heard within its silence limit; `offline` when it said so or its will did, `silent`
/// when it just stopped; `no radio` when it is online but its telemetry says its controller is
/// gone, so it hears nothing: 8 cells, the most that leaves a gap before a 4-cell age), the last message's age, messages a second, its clock offset (receive
/// time minus its own time, delivery delay included) and its RSSI offset with where it came from.
enum ScannerListView {
    /// Right-aligned columns end at `x` (at 55 columns and up; a narrower screen shifts them left
    /// with the state). The offset and its source (`-3.5 (catalog)`) end at the
    /// 80-column edge: they ended at 75 and ran 10 cells past it, cut to `-3.5 (cat`.
    static let columns: [(heading: String, x: Int, right: Bool)] = [
        ("SCANNER", 1, false), ("ROOM", 18, false), ("STATE", 35, false), ("LAST", 48, true), ("MSG/s", 55, true),
        ("CLOCK s", 63, true), ("OFFSET dB", 79, true),
    ]
    static let clockEnd = 63
    static let offsetEnd = 79
    /// Columns 1-34 hold the scanner and its room from 55 columns; below, they give up to 14 of them
    /// (at 40 columns the state ran off the edge, `onlin`), each name cut in the middle.
    static let widestNames = 34

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let names = min(widestNames, max(20, buffer.width - 21))
        let shift = names - widestNames
        let roomX = 1 + names / 2
        buffer.fill(y: 1, role: .columnHeader)
        // A right-aligned column that does not end on screen is left out whole (at 60 columns the
        // clock and the offset), never drawn as a cut heading over missing values.
        for column in columns where !column.right || column.x + shift <= buffer.width {
            let x = column.x == 1 ? 1 : column.x == 18 ? roomX : column.x + shift
            if column.right {
                buffer.writeRight(column.heading, end: x, y: 1, role: .columnHeader)
            } else {
                buffer.write(column.heading, x: x, y: 1, role: .columnHeader)
            }
        }
        if model.scanners.isEmpty {
            let message = model.totalScannerCount == 0
                ? "No scanners heard yet (the scanner list is a venue's: monitor mqtt://BROKER)."
                : "No scanner matches the filter \"\(model.screenFilterText)\" (name, room or state)"
            buffer.writeWrapped(message, x: 2, y: 2, lines: max(1, buffer.height - 3), role: .muted)
            return
        }
        // Every scanner on a canvas shown through the screen (ScrollWindow): a venue with more
        // scanners than lines lost the rest off the bottom with no sign they existed.
        var canvas = ScreenBuffer(width: buffer.width, height: model.scanners.count, charset: buffer.charset)
        for (y, scanner) in model.scanners.enumerated() {
            let hearing = scanner.hears
            let state = scanner.stateText
            let role: StyleRole = hearing ? .plain : .warning
            canvas.write(HealthView.cutInTheMiddle(scanner.name, width: roomX - 2, charset: canvas.charset), x: 1, y: y, role: role)
            canvas.write(HealthView.cutInTheMiddle(scanner.room, width: names - roomX, charset: canvas.charset), x: roomX, y: y, role: .plain)
            canvas.write(state, x: 35 + shift, y: y, role: hearing ? .immediate : .warning)
            let last = scanner.secondsSinceHeard.map(CellFormat.age) ?? "-"
            canvas.writeRight(last, end: 48 + shift, y: y, role: .plain)
            if 55 + shift <= canvas.width {
                canvas.writeRight(scanner.messagesPerSecond.map { CellFormat.fixed($0, decimals: 1) } ?? "-", end: 55 + shift, y: y, role: .plain)
            }
            if clockEnd + shift <= canvas.width {
                canvas.writeRight(scanner.clockOffset.map(CellFormat.offset) ?? "-", end: clockEnd + shift, y: y, role: .plain)
            }
            if offsetEnd + shift <= canvas.width {
                let source = scanner.offsetSource == "none" ? "" : " (\(scanner.offsetSource))"
                canvas.writeRight(CellFormat.fixed(scanner.offset, decimals: 1) + source, end: offsetEnd + shift, y: y, role: .plain)
            }
        }
        // A scanner a line, named by its name: the one at the top stays there as others join or leave.
        let paragraphs = ScrollParagraphs(model.scanners.map { ($0.name, 1) })
        ScrollWindow.show(canvas, paragraphs, scroll: model.scroll, anchor: model.scrollAnchor, top: 2, bottom: buffer.height - 1, into: &buffer)
    }
}
