import Monitor

/// Line 0: the program and catalog title on the left; beacon count (and a venue's devices), sort and
/// filters on the right (the health view: its transmitter count; the device list: its device count).
/// When the line is too narrow, the filters go first, then the catalog title is cut (to 8 columns
/// at least), then it goes, then the sort.
enum TitleBar {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let separator = buffer.charset.separator
        buffer.fill(y: 0, role: .header)
        var screen = ""
        switch model.screen {
        case .table: break
        case .detail: screen = separator + "detail"
        case .help: screen = separator + "help"
        case .events: screen = separator + "events"
        case .scanners: screen = separator + "scanners"
        case .devices: screen = separator + "devices"
        case .deviceDetail: screen = separator + "device"
        case .calibration: screen = separator + "calibration"
        case .health: screen = separator + "health"
        }
        var lefts = [" beacontop" + screen]
        if let title = model.title { lefts.insert(" beacontop" + separator + title + screen, at: 0) }
        let width = buffer.width
        func measure(_ s: String) -> Int { TerminalText.width(s, charset: buffer.charset) }

        var rights: [String]
        if model.screen == .health {
            // The health view lists transmitters (one identity from two addresses is two lines),
            // by name then address: the table's count, sort and filter do not apply to it.
            let count = model.health.transmitters.count
            rights = ["\(count) " + (count == 1 ? "transmitter" : "transmitters")]
        } else if model.screen == .devices || model.screen == .deviceDetail {
            // The device list is not the table: its own count and `/` filter, no sort.
            let count = model.devices.count == model.totalDeviceCount ? "\(model.devices.count)" : "\(model.devices.count) of \(model.totalDeviceCount)"
            rights = [count + (model.totalDeviceCount == 1 ? " device" : " devices")]
            if !model.deviceFilterText.isEmpty && !model.isEditingFilter { rights.append("/\(model.deviceFilterText)") }
        } else {
            let count = model.rows.count == model.totalRowCount ? "\(model.rows.count)" : "\(model.rows.count) of \(model.totalRowCount)"
            // A venue's devices (phones) are no rows: their count says the `d` list has some.
            let devices = model.totalDeviceCount == 0 ? "" : ", \(model.totalDeviceCount) " + (model.totalDeviceCount == 1 ? "device" : "devices")
            rights = [count + (model.totalRowCount == 1 ? " beacon" : " beacons") + devices, "sort: \(model.sort.rawValue)"]
            if let filter = model.activeFilter { rights.append("filter: \(filter)") }
            if !model.filterText.isEmpty && !model.isEditingFilter { rights.append("/\(model.filterText)") }
        }

        var attempts: [(String, Int)] = []
        for left in lefts { attempts += [(left, rights.count), (left, 2)] }
        // A venue's long name is cut rather than lost: the demo's title bar read "beacontop" alone
        // on a 100-column screen beside a 60-character catalog title.
        if let title = model.title {
            let right = rights.prefix(2).joined(separator: separator) + " "
            let room = width - measure(" beacontop" + separator + screen) - gap - measure(right)
            if room >= minimumTitleColumns {
                attempts.insert((" beacontop" + separator + cut(title, to: room, charset: buffer.charset) + screen, 2), at: 2)
            }
        }
        attempts.append((lefts.last!, 1))
        for (left, keep) in attempts {
            let right = rights.prefix(keep).joined(separator: separator) + " "
            if measure(left) + gap + measure(right) <= width {
                buffer.write(left, x: 0, y: 0, role: .header)
                buffer.writeRight(right, end: width, y: 0, role: .header)
                return
            }
        }
        buffer.write(lefts.last!, x: 0, y: 0, role: .header)
    }

    /// The fewest spaces between the left and the right of the line. One made a cut title read on
    /// into the count (`The Litt… · events 10 beacons`); three left a 50-column screen too little
    /// for the 8 columns of a cut title, so it went (`The Litt…` in ScreenScenarioTests).
    static let gap = 2

    /// The fewest columns of a cut title worth showing, its ellipsis included.
    static let minimumTitleColumns = 8

    /// `title`'s head in at most `columns` columns, an ellipsis ending it in place of a trailing
    /// space or comma.
    static func cut(_ title: String, to columns: Int, charset: Charset) -> String {
        var head = Wrap.split(title, columns: columns - 1, charset: charset).head
        // "East Wing…", not "East Wing, …".
        while let last = head.last, last == " " || last == "," { head.removeLast() }
        return head + String(charset.ellipsis)
    }
}
