import Monitor

/// `d`: the devices a venue tracks (`monitor mqtt://BROKER`, a venue recording), one line each, by
/// id: the id as its scanner wrote it (a phone's `irk:...`, a `name:...`), its room (`?` while
/// presence has not placed it: the line in the `stale` style), the scanner that places it, that
/// scanner's RSSI and distance as reported, and the reading's age. ESPresense's and
/// room-assistant's own pages list every tracked device so; here the event log named a phone
/// (`irk:0011aabb in café`) that no row or list showed.
/// `/` narrows it (`MonitorState.visibleDevices`: id, room or scanner, any case), the title bar
/// then counting `1 of 2 devices`, as the table's filter narrows the table.
///
/// The ids come from the network: every one is drawn through `ScreenBuffer.write`, whose sanitiser
/// turns escapes, bidi controls and the like into replacement cells, and a long one is cut in the
/// middle to its column (an id of 256 bytes, the most the decoder takes, keeps its head and tail).
enum DeviceListView {
    /// The value columns, each right-aligned to end before the next (the last before the edge's
    /// blank column), its width taking the space before it.
    static let values: [(heading: String, width: Int)] = [("RSSI", 5), ("DIST m", 7), ("AGE", 5)]
    static let valuesWidth = values.reduce(0) { $0 + $1.width }
    /// The room and scanner columns, a space included, at their widest.
    static let widestPlace = 20
    /// The device column at its widest: a longer id (up to 256 bytes come in) is cut in the middle
    /// rather than pushing the room 200 columns away from a phone's short id on a wide screen.
    static let widestDevice = 40
    /// The scanner column shows from this many columns of names (59-column screens); below, the
    /// device and its room share them (a phone's id whole at 40 columns: `irk:0011aabb`).
    static let namesWithScanner = 40

    /// Each text column's width, the space before the next included.
    struct Layout: Equatable {
        var device: Int
        var room: Int
        /// Zero: the scanner column is left out.
        var scanner: Int
        var names: Int { device + room + scanner }
    }

    /// A fixed layout for the width, not one fitted to the ids shown: the columns stay put as devices
    /// come and go.
    static func layout(width: Int) -> Layout {
        let names = max(0, width - 2 - valuesWidth)
        if names >= namesWithScanner {
            let place = min(widestPlace, names / 4)
            return Layout(device: min(widestDevice, names - 2 * place), room: place, scanner: place)
        }
        let room = min(widestPlace, names * 2 / 5)
        return Layout(device: names - room, room: room, scanner: 0)
    }

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let layout = layout(width: buffer.width)
        let roomX = 1 + layout.device
        let scannerX = roomX + layout.room
        var ends: [Int] = []
        for column in values { ends.append((ends.last ?? 1 + layout.names) + column.width) }
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write("DEVICE", x: 1, y: 1, role: .columnHeader)
        buffer.write("ROOM", x: roomX, y: 1, role: .columnHeader)
        if layout.scanner > 0 { buffer.write("SCANNER", x: scannerX, y: 1, role: .columnHeader) }
        for (column, end) in zip(values, ends) { buffer.writeRight(column.heading, end: end, y: 1, role: .columnHeader) }
        if model.devices.isEmpty {
            let message = model.totalDeviceCount == 0
                ? "No devices tracked yet (the device list is a venue's: ESPresense ids that name no beacon, as a phone's irk:... or name:...)."
                : "No device matches the filter \"\(model.screenFilterText)\" (id, room or scanner)"
            buffer.writeWrapped(message, x: 2, y: 2, lines: max(1, buffer.height - 3), role: .muted)
            return
        }
        // Every device on a canvas shown through the screen (ScrollWindow), as the scanner list.
        var canvas = ScreenBuffer(width: buffer.width, height: model.devices.count, charset: buffer.charset)
        let charset = canvas.charset
        for (y, device) in model.devices.enumerated() {
            let role: StyleRole = y == model.selectedDeviceIndex ? .selected : device.room == nil ? .stale : .plain
            canvas.fill(y: y, role: role)
            canvas.write(HealthView.cutInTheMiddle(device.id, width: layout.device - 1, charset: charset), x: 1, y: y, role: role, limit: layout.device - 1)
            canvas.write(HealthView.cutInTheMiddle(device.room ?? "?", width: layout.room - 1, charset: charset), x: roomX, y: y, role: role, limit: layout.room - 1)
            if layout.scanner > 0 {
                canvas.write(HealthView.cutInTheMiddle(device.reading.scanner, width: layout.scanner - 1, charset: charset), x: scannerX, y: y, role: role,
                             limit: layout.scanner - 1)
            }
            let reading = device.reading
            let texts = [CellFormat.fixed(reading.rssi, decimals: 0), reading.distance.map(CellFormat.metres) ?? "?", CellFormat.age(reading.age)]
            for (text, end) in zip(texts, ends) { canvas.writeRight(text, end: end, y: y, role: role) }
        }
        // Anchored by id, as the scanner list by name: a phone arriving above the one read, or a
        // resize, leaves the reader at the same device; then moved as little as shows the selection.
        let paragraphs = ScrollParagraphs(model.devices.map { ($0.id, 1) })
        var top = model.scroll
        if let anchor = model.scrollAnchor, let found = paragraphs.find(anchor) { top = found.line }
        if let selected = model.selectedDeviceIndex {
            top = showing(selected, from: top, lines: buffer.height - 3, count: model.devices.count)
        }
        ScrollWindow.show(canvas, paragraphs, scroll: top, anchor: nil, top: 2, bottom: buffer.height - 1, into: &buffer)
    }

    /// The first device to show so that line `selected` is in a window of `lines` from `top` on,
    /// moved as little as that takes. While devices are left below, the window's last line is the
    /// marker saying how many (`ScrollWindow`), which would cover the selection.
    static func showing(_ selected: Int, from top: Int, lines: Int, count: Int) -> Int {
        let limit = max(0, count - max(1, lines))
        var first = min(max(0, top), limit)
        if selected < first { first = selected }
        if first < limit, selected >= first + lines - 1 { first = min(limit, selected - lines + 2) }
        return first
    }
}
