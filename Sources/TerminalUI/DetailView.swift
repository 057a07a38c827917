import Monitor
import Survey

/// Enter on a row: the beacon's values, RSSI and distance over time as charts, the last raw frame in
/// hex, and every ranging filter's estimate side by side.
enum DetailView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        guard let row = model.selectedRow else {
            buffer.write("No beacon selected. Esc returns to the table.", x: 1, y: 2, role: .muted)
            return
        }
        if let venue = row.venue { return VenueDetailView.draw(row, venue, into: &buffer) }
        let separator = buffer.charset.separator
        let width = buffer.width
        var y = 1
        // The full id, which a technician copies into the catalog: an uncatalogued beacon's short
        // name (`494E5445…:20597:62207`) left the UUID nowhere on screen.
        let heading = " " + (row.exhibitName.map { $0 + separator } ?? "") + row.identity.description
            + separator + row.identity.kind.rawValue
        buffer.fill(y: y, role: .columnHeader)
        buffer.write(heading, x: 0, y: y, role: .columnHeader)
        y += 1
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
        for line in flow(summary, separator: separator, width: width - 1, charset: buffer.charset).prefix(2) {
            buffer.write(" " + line, x: 0, y: y, role: row.isStale ? .stale : .plain)
            y += 1
        }
        y = drawHealth(model.health.byIdentity[row.identity], at: model.health.time, top: y, buffer: &buffer)

        // Lines below the charts: raw frame label + up to two hex lines, the filters line.
        let hexPerLine = max(1, (width - 2) / 3)
        let hexLines = min(2, (row.lastRawFrame.count + hexPerLine - 1) / hexPerLine)
        let footer = 1 + max(1, hexLines) + 1
        let chartSpace = buffer.height - 1 - y - footer
        let chartHeight = max(1, (chartSpace - 2) / 2)
        // A line the two charts cannot share goes to the RSSI chart rather than staying blank.
        let rssiHeight = chartHeight + max(0, chartSpace - 2 - 2 * chartHeight)

        let rssi = row.rssiHistory.map(Double.init)
        y = chart(title: "RSSI, dBm", samples: rssi, low: Chart.rssiFloor, high: Chart.rssiCeiling,
                  height: rssiHeight, top: y, buffer: &buffer)
        let highest = max(1, (row.accuracyHistory.max() ?? 1).rounded(.up))
        y = chart(title: "distance, m", samples: row.accuracyHistory, low: 0, high: highest,
                  height: chartHeight, top: y, buffer: &buffer)

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
        var x = buffer.write(" Filters:", x: 0, y: y, role: .columnHeader)
        if row.filterEstimates.isEmpty { buffer.write(" none reported", x: x, y: y, role: .muted) }
        for estimate in row.filterEstimates {
            let active = estimate.filterName == model.activeFilter
            let value = estimate.accuracy.map { CellFormat.metres($0) + " m" } ?? "?"
            x += buffer.write("  \(estimate.filterName) \(value)", x: x, y: y, role: active ? .nearest : .plain)
        }
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
            buffer.write(" Health " + HealthText.summary(health, at: time), x: 0, y: y, role: .plain)
            y += 1
        }
        let findings = condition.findingLines
        for (index, line) in findings.prefix(3).enumerated() {
            let more = index == 2 && findings.count > 3 ? " (+\(findings.count - 3) more: H)" : ""
            buffer.put("!", x: 0, y: y, role: .finding)
            buffer.write(" " + line + more, x: 1, y: y, role: .finding)
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
