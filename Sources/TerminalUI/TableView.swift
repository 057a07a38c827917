import Monitor

/// Draws the live table, the nearest-exhibit panel and the empty-table message.
enum TableView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let showsPanel = model.nearest?.showsPanel ?? false
        let geometry = TableGeometry(lines: buffer.height, nearest: model.nearest)
        let longestName = model.rows.reduce(0) { max($0, TerminalText.width($1.displayName, charset: buffer.charset)) }
        let layout = TableLayout(width: buffer.width, venue: model.rows.contains { $0.venue != nil }, longestName: longestName)
        let headerLine = geometry.firstRowLine - 1
        buffer.fill(y: headerLine, role: .columnHeader)
        for placed in layout.columns {
            let narrowRoom = placed.column == .room && placed.width < TableLayout.roomWithScanner
            cell(narrowRoom ? "ROOM" : placed.column.heading, placed, y: headerLine, role: .columnHeader, buffer: &buffer)
        }
        if model.rows.isEmpty {
            let message = model.totalRowCount == 0
                ? "No beacons heard yet (\(model.source.name))"
                : "No beacon matches the filter \"\(model.filterText)\""
            // Wrapped: at 50 columns the source's path was cut at the edge.
            buffer.writeWrapped(message, x: 2, y: geometry.firstRowLine, lines: max(1, geometry.rowCapacity), role: .muted)
        }
        let first = geometry.firstVisibleIndex(selectedIndex: model.selectedIndex, rowCount: model.rows.count)
        let last = min(model.rows.count, first + geometry.rowCapacity)
        if first < last {
            for index in first..<last {
                drawRow(model.rows[index], selected: index == model.selectedIndex,
                        nearest: model.nearest?.identity == model.rows[index].identity,
                        finding: model.health.byIdentity[model.rows[index].identity]?.hasFinding ?? false, layout: layout, y: geometry.firstRowLine + index - first, buffer: &buffer)
            }
        }
        if showsPanel, let nearest = model.nearest {
            drawPanel(nearest, top: geometry.firstRowLine + geometry.rowCapacity, buffer: &buffer)
        }
    }

    /// `finding`: the beacon has a health finding or a duplicate; its mark `!` takes the marker
    /// column (before the nearest row's `>`: a fault outranks being nearest).
    static func drawRow(
        _ row: BeaconRowModel, selected: Bool, nearest: Bool, finding: Bool = false, layout: TableLayout, y: Int, buffer: inout ScreenBuffer
    ) {
        let rowRole: StyleRole = selected ? .selected : (nearest ? .nearest : (row.isStale ? .stale : .plain))
        buffer.fill(y: y, role: rowRole)
        if finding {
            buffer.write("!", x: 0, y: y, role: .finding)
        } else if nearest {
            buffer.write(">", x: 0, y: y, role: rowRole)
        }
        let charset = buffer.charset
        for placed in layout.columns {
            var role = rowRole
            let text: String
            switch placed.column {
            case .name:
                // An id too long for the column keeps its distinguishing end (`E2C…:100:1`).
                text = row.exhibitName ?? (row.shortName.count > placed.width ? row.identity.shortDescription(fitting: placed.width) : nil) ?? row.shortName
            case .rssi:
                text = row.rssi.map(String.init) ?? "-"
            case .history:
                let levels = charset.levels
                let glyphRole: StyleRole = rowRole == .plain ? .chart : rowRole
                for (offset, level) in Chart.sparklineLevels(row.rssiHistory, width: placed.width, levelCount: levels.count).enumerated() {
                    buffer.put(levels[level], x: placed.x + offset, y: y, role: glyphRole)
                }
                continue
            case .accuracy:
                text = row.accuracy.map(CellFormat.metres) ?? "?"
            case .range:
                text = row.accuracyRange.map(CellFormat.range) ?? ""
            case .proximity:
                text = row.proximity.rawValue
                if rowRole == .plain || rowRole == .nearest { role = proximityRole(row.proximity) }
            case .measuredPower:
                text = row.measuredPower.map(String.init) ?? "-"
            case .packets:
                text = row.packetsPerSecond.map { CellFormat.fixed($0, decimals: 1) } ?? "-"
            case .age:
                text = CellFormat.age(row.secondsSinceSeen)
            case .room:
                // A narrow column (a venue at 40-53 columns) holds the room alone, cut in the middle.
                text = row.venue.map { venue in
                    placed.width < TableLayout.roomWithScanner
                        ? HealthView.cutInTheMiddle(venue.room ?? "?", width: placed.width, charset: charset)
                        : "\(venue.room ?? "?") (\(venue.scanner ?? "-"))"
                } ?? ""
            case .runnerUp:
                text = row.venue?.runnerUp.map { "\($0.room) \($0.distance.map(CellFormat.metres) ?? "?")" } ?? ""
            }
            cell(text, placed, y: y, role: role, buffer: &buffer)
        }
    }

    static func proximityRole(_ proximity: ProximityClass) -> StyleRole {
        switch proximity {
        case .immediate: .immediate
        case .near: .near
        case .far: .far
        case .unknown: .unknown
        }
    }

    /// Writes a cell's text, truncated with an ellipsis or right-aligned as the column wants.
    static func cell(_ text: String, _ placed: TableLayout.Placed, y: Int, role: StyleRole, buffer: inout ScreenBuffer) {
        let width = TerminalText.width(text, charset: buffer.charset)
        if width > placed.width {
            let written = buffer.write(text, x: placed.x, y: y, role: role, limit: placed.width - 1)
            buffer.write(String(buffer.charset.ellipsis), x: placed.x + written, y: y, role: role)
        } else if placed.column.rightAligned {
            buffer.write(text, x: placed.x + placed.width - width, y: y, role: role)
        } else {
            buffer.write(text, x: placed.x, y: y, role: role)
        }
    }

    /// The panel: a rule carrying the exhibit's name and proximity, then its description word-wrapped.
    static func drawPanel(_ nearest: NearestExhibit, top: Int, buffer: inout ScreenBuffer) {
        let rule = buffer.charset.rule
        buffer.fill(rule, y: top, role: .nearest)
        // The name gives way, not the proximity: at 40 columns a long name left '· n'.
        let proximity = "\(buffer.charset.separator)\(nearest.proximity.rawValue) "
        let room = buffer.width - 4 - 1 - TerminalText.width(proximity, charset: buffer.charset)
        let name = TerminalText.width(nearest.name, charset: buffer.charset) <= room ? nearest.name : TitleBar.cut(nearest.name, to: room, charset: buffer.charset)
        buffer.write(" " + name + proximity, x: 2, y: top, role: .nearest, limit: buffer.width - 4)
        let lines = Wrap.words(TerminalText.sanitized(nearest.description, charset: buffer.charset),
                               width: buffer.width - 2, lines: TableGeometry.panelLines - 1, ellipsis: buffer.charset.ellipsis,
                               charset: buffer.charset)
        for (offset, line) in lines.enumerated() {
            buffer.write(line, x: 1, y: top + 1 + offset, role: .plain)
        }
    }
}
