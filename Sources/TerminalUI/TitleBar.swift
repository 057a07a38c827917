import Monitor

/// Line 0: the program and catalog title on the left; beacon count (and a venue's devices), sort and
/// filters on the right (the health view, the scanner and device lists: their own count and `/`
/// filter; the event log: the log's `/` filter, its count being in its heading).
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
        if [.health, .devices, .deviceDetail, .scanners].contains(model.screen) {
            // These lists are not the table: their own count and `/` filter, no sort. The health
            // view lists transmitters (one identity from two addresses is two lines), by name then
            // address; a venue's lists, its scanners and its devices.
            rights = switch model.screen {
            case .health: [count(model.health.transmitters.count, of: model.totalTransmitterCount, "transmitter")]
            case .devices, .deviceDetail: [count(model.devices.count, of: model.totalDeviceCount, "device")]
            default: [count(model.scanners.count, of: model.totalScannerCount, "scanner")]
            }
            if !model.screenFilterText.isEmpty && !model.isEditingFilter { rights.append("/\(model.screenFilterText)") }
        } else {
            let count = model.rows.count == model.totalRowCount ? "\(model.rows.count)" : "\(model.rows.count) of \(model.totalRowCount)"
            // A venue's devices (phones) are no rows: their count says the `d` list has some.
            let devices = model.totalDeviceCount == 0 ? "" : ", \(model.totalDeviceCount) " + (model.totalDeviceCount == 1 ? "device" : "devices")
            rights = [count + (model.totalRowCount == 1 ? " beacon" : " beacons") + devices, "sort: \(model.sort.rawValue)"]
            if let filter = model.activeFilter { rights.append("filter: \(filter)") }
            // The `/` filter of the screen shown. On the event log, the log's, before the table's
            // sort: what narrows the screen read, kept where the sort and the ranging filter give
            // way (a venue at 80 columns).
            if model.screen == .events {
                if !model.screenFilterText.isEmpty && !model.isEditingFilter { rights.insert("/\(model.screenFilterText)", at: 1) }
            } else if !model.filterText.isEmpty && !model.isEditingFilter {
                rights.append("/\(model.filterText)")
            }
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

    /// `3 of 30 scanners` while a filter narrows a list, else `30 scanners`.
    static func count(_ shown: Int, of total: Int, _ noun: String) -> String {
        (shown == total ? "\(shown)" : "\(shown) of \(total)") + " " + noun + (total == 1 ? "" : "s")
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
