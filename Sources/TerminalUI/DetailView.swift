import Monitor
import Survey

/// Enter on a row: the beacon's values, RSSI and distance over time as charts, the last raw frame in
/// hex, and every ranging filter's estimate side by side.
enum DetailView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        guard let row = model.selectedRow else {
            // Said under its id, as a device's detail says a device is gone: before, the pane
            // showed the table's first beacon in its place, under that beacon's name, unannounced.
            let text = model.goneBeacon.map {
                "No longer heard: \($0.description) has left the table, silent too long (a minute on a radio). It shows here again if heard. Esc returns to the table."
            } ?? "No beacon selected. Esc returns to the table."
            buffer.writeWrapped(text, x: 1, y: 2, lines: buffer.height - 4, role: .muted)
            return
        }
        // A venue beacon's readings are ranked by level, re-ranked every second: there the rank is
        // what is read, so they scroll by line.
        if let venue = row.venue { return VenueDetailView.draw(row, venue, scroll: model.scroll, into: &buffer) }
        // Drawn whole, then shown through the screen: with health findings a 40x12 pane pushed the
        // raw frame and the filters under the status line, with no sign they were there.
        var canvas = ScreenBuffer(width: buffer.width, height: buffer.height + 32, charset: buffer.charset)
        let parts = drawContent(row, model, screenHeight: buffer.height, into: &canvas)
        ScrollWindow.show(canvas, ScrollParagraphs(ends: parts), scroll: model.scroll, anchor: model.scrollAnchor, top: 1, bottom: buffer.height - 1,
                          into: &buffer)
    }

    /// The pane from its canvas's first line: the charts take what the screen (`screenHeight` lines,
    /// title and status line included) leaves. Returns its parts (heading, values, health, charts,
    /// raw frame, filters) and the line each ends before, in order: the part being read stays at the
    /// top when a resize wraps them anew or one above it grows (a finding, a chart given room).
    private static func drawContent(_ row: BeaconRowModel, _ model: MonitorViewModel, screenHeight: Int,
                                    into buffer: inout ScreenBuffer) -> [(name: String, end: Int)] {
        let separator = buffer.charset.separator
        let width = buffer.width
        var y = 0
        var parts: [(name: String, end: Int)] = []
        func part(_ name: String) { parts.append((name, y)) }
        // The full id, which a technician copies into the catalog: an uncatalogued beacon's short
        // name (`494E5445…:20597:62207`) left the UUID nowhere on screen.
        // Under 80 columns the name and the id share no line: the id goes under the name, whole
        // where it fits (it was cut at the edge, `8F3A2C61-5B` at 50 columns).
        let heading = (row.exhibitName.map { [$0] } ?? []) + [row.identity.description, row.identity.kind.rawValue]
        for line in flow(heading, separator: separator, width: width - 1, charset: buffer.charset).prefix(2) {
            buffer.fill(y: y, role: .columnHeader)
            // Too long (the id at 40 columns): cut in the middle of the UUID, major and minor kept.
            buffer.write(" " + HealthView.cutInTheMiddle(line, width: width - 1, charset: buffer.charset), x: 0, y: y, role: .columnHeader)
            y += 1
        }
        part("heading")
        var distance = "distance " + (row.accuracy.map { CellFormat.metres($0) + " m" } ?? "?")
        // The range is a stated-probability interval: say which probability.
        if let range = row.accuracyRange {
            distance += " (\(CellFormat.range(range)) m, \(Int((row.rangeProbability * 100).rounded()))%)"
        }
        let summary = [
            "RSSI \(row.rssi.map { "\($0) dBm" } ?? "-")", distance, row.proximity.rawValue,
            "TX@1m " + (row.measuredPower.map { "\($0) dBm" } ?? "-"),
            (row.packetsPerSecond.map { CellFormat.fixed($0, decimals: 1) } ?? "-") + " pkt/s",
            "seen " + CellFormat.age(row.secondsSinceSeen) + " ago",
        ]
        // Every value, on as many lines as it takes: at 40 columns two lines held only the RSSI and
        // the distance, not the proximity, the rate or the age.
        for line in flow(summary, separator: separator, width: width - 1, charset: buffer.charset) {
            buffer.write(" " + line, x: 0, y: y, role: row.isStale ? .stale : .plain)
            y += 1
        }
        part("values")
        y = drawHealth(model.health.byIdentity[row.identity], at: model.health.time, top: y, buffer: &buffer)
        part("health")

        // Lines below the charts: raw frame label + up to two hex lines, the filters line.
        let hexPerLine = max(1, (width - 2) / 3)
        let hexLines = min(2, (row.lastRawFrame.count + hexPerLine - 1) / hexPerLine)
        let filterLines = flowFilters(row.filterEstimates, active: model.activeFilter, width: width, charset: buffer.charset)
        let footer = 1 + max(1, hexLines) + filterLines.count
        let chartSpace = screenHeight - 2 - y - footer
        let rssi = row.rssiHistory.map(Double.init)
        // On a screen too short for both charts (40x12 once every value is shown) the distance
        // chart goes, then the RSSI chart: the values above say more than a one-line chart.
        if chartSpace >= 4 {
            let chartHeight = max(1, (chartSpace - 2) / 2)
            // A line the two charts cannot share goes to the RSSI chart rather than staying blank.
            let rssiHeight = chartHeight + max(0, chartSpace - 2 - 2 * chartHeight)
            y = chart(title: "RSSI, dBm", samples: rssi, low: Chart.rssiFloor, high: Chart.rssiCeiling,
                      height: rssiHeight, top: y, buffer: &buffer)
            part("RSSI chart")
            let highest = max(1, (row.accuracyHistory.max() ?? 1).rounded(.up))
            y = chart(title: "distance, m", samples: row.accuracyHistory, low: 0, high: highest,
                      height: chartHeight, top: y, buffer: &buffer)
            part("distance chart")
        } else if chartSpace >= 2 {
            y = chart(title: "RSSI, dBm", samples: rssi, low: Chart.rssiFloor, high: Chart.rssiCeiling,
                      height: chartSpace - 1, top: y, buffer: &buffer)
            part("RSSI chart")
        }

        buffer.write(" Last raw frame (\(row.lastRawFrame.count) bytes)", x: 0, y: y, role: .columnHeader)
        y += 1
        if row.lastRawFrame.isEmpty {
            buffer.write("  none", x: 0, y: y, role: .muted)
            y += 1
        } else {
            for line in 0..<hexLines {
                let bytes = row.lastRawFrame.dropFirst(line * hexPerLine).prefix(hexPerLine)
                var text = CellFormat.hex(bytes)
                if line == hexLines - 1 && line * hexPerLine + bytes.count < row.lastRawFrame.count {
                    text = String(text.dropLast(2)) + String(buffer.charset.ellipsis)
                }
                buffer.write(" " + text, x: 0, y: y, role: .plain)
                y += 1
            }
        }
        part("raw frame")
        for (offset, line) in filterLines.enumerated() {
            var x = 0
            for piece in line { x += buffer.write(piece.text, x: x, y: y + offset, role: piece.role) }
        }
        y += filterLines.count
        part("filters")
        return parts
    }

    /// "Filters:" and every filter's estimate, the one in use highlighted, flowed whole into lines
    /// of `width` columns (at 60 columns the line ran off the edge at `arma 0.1`).
    static func flowFilters(_ estimates: [FilterEstimate], active: String?, width: Int, charset: Charset) -> [[(text: String, role: StyleRole)]] {
        var lines: [[(text: String, role: StyleRole)]] = [[(" Filters:", .columnHeader)]]
        if estimates.isEmpty { lines[0].append((" none reported", .muted)) }
        let indent = TerminalText.width(" Filters:", charset: charset)
        var used = indent
        for estimate in estimates {
            let value = estimate.accuracy.map { CellFormat.metres($0) + " m" } ?? "?"
            let text = "  \(estimate.filterName) \(value)"
            let columns = TerminalText.width(text, charset: charset)
            if used + columns > width - 1 && lines[lines.count - 1].count > 1 {
                lines.append([])
                used = indent
                lines[lines.count - 1].append((String(repeating: " ", count: indent), .plain))
            }
            lines[lines.count - 1].append((text, estimate.filterName == active ? .nearest : .plain))
            used += columns
        }
        return lines
    }


    /// `items` joined by `separator` into lines of at most `width` columns, an item never split
    /// across two: at 80 columns the summary ran past the edge and lost its packet rate and age.
    static func flow(_ items: [String], separator: String, width: Int, charset: Charset) -> [String] {
        var lines: [String] = []
        var current = ""
        for item in items {
            let joined = current.isEmpty ? item : current + separator + item
            if current.isEmpty || TerminalText.width(joined, charset: charset) <= width {
                current = joined
            } else {
                lines.append(current)
                current = item
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The transmitter's health on one line, then its findings and duplicates (at most three lines,
    /// so the charts keep their room). Returns the next free line.
    private static func drawHealth(_ condition: BeaconCondition?, at time: Double, top: Int, buffer: inout ScreenBuffer) -> Int {
        guard let condition else { return top }
        var y = top
        if let health = condition.health {
            // Wrapped: at 50 columns the loss ran off the edge.
            for line in Wrap.words("Health " + HealthText.summary(health, at: time), width: buffer.width - 2, lines: 2,
                                   ellipsis: buffer.charset.ellipsis, charset: buffer.charset) {
                buffer.write(" " + line, x: 0, y: y, role: .plain)
                y += 1
            }
        }
        let findings = condition.findingLines
        for (index, line) in findings.prefix(3).enumerated() {
            let more = index == 2 && findings.count > 3 ? " (+\(findings.count - 3) more: H)" : ""
            buffer.put("!", x: 0, y: y, role: .finding)
            // Whole words and an ellipsis where it is longer than the line (it ran off the edge); the
            // health view (H) has it whole.
            let fitted = Wrap.words(line + more, width: buffer.width - 3, lines: 1, ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
            buffer.write(" " + (fitted.first ?? ""), x: 1, y: y, role: .finding)
            y += 1
        }
        return y
    }

    /// A titled bar chart with the scale's top and bottom on the left. Returns the next free line.
    private static func chart(title: String, samples: [Double], low: Double, high: Double, height: Int, top: Int, buffer: inout ScreenBuffer) -> Int {
        var y = top
        buffer.write(" \(title) (\(samples.count) samples)", x: 0, y: y, role: .columnHeader)
        y += 1
        let axis = 7
        let lines = Chart.bars(samples, width: buffer.width - axis - 1, height: height, low: low, high: high, charset: buffer.charset)
        for (offset, line) in lines.enumerated() {
            let label = offset == 0 ? CellFormat.fixed(high, decimals: 0) : (offset == height - 1 ? CellFormat.fixed(low, decimals: 0) : "")
            buffer.writeRight(label, end: axis - 1, y: y, role: .muted)
            buffer.write(line, x: axis, y: y, role: .chart)
            y += 1
        }
        if samples.isEmpty { buffer.write("no samples yet", x: axis, y: y - 1, role: .muted) }
        return y
    }
}
