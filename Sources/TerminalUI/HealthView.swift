import HCI
import Monitor
import Survey

/// `H`: every transmitter's health, one line each (by name, then address), its findings on the
/// lines under it: battery, temperature, TLM age, advertising count and uptime from the last
/// Eddystone-TLM (or `encrypted`), the measured advertising interval and loss.
///
/// What a technician needs here is to tell two rows apart: one identity sent from two addresses,
/// or two ids that differ only in their minor. So a name too long for its column is cut in the
/// middle, keeping the tail (an id's major and minor, an Eddystone instance), and below
/// `fullAddressColumns` the address keeps its last three bytes rather than pushing the values off
/// an 80-column screen.
enum HealthView {
    /// Columns: name, address, then the fixed-width values.
    static let headings: [(title: String, width: Int)] = [
        ("BATTERY", 7), ("TEMP", 6), ("TLM AGE", 7), ("COUNT", 8), ("UPTIME", 7), ("INTERVAL", 8), ("LOSS", 5),
    ]
    /// On a screen too narrow for every value (under 73 columns), values leave in this order (by
    /// index into `headings`) rather than run off the right edge: uptime and the advertising
    /// count first, the temperature, then the TLM's age; battery, interval and loss, what a
    /// technician walks the floor for, stay longest.
    static let dropOrder = [4, 3, 1, 2, 0, 5]
    /// From this width the address is whole and the name column still holds a short id
    /// (`494E5445…:20597:62207`, 21 cells) after its marker.
    static let fullAddressColumns = 95
    /// The name column's least width, its `!` marker included.
    static let minimumNameWidth = 8

    /// Widths of the name column (its `!` marker included) and the address column, and the value
    /// columns that fit (indices into `headings`, in order).
    static func columnWidths(width: Int) -> (name: Int, address: Int, values: [Int]) {
        let address = width >= fullAddressColumns ? 17 : 9
        var shown = Array(headings.indices)
        func valuesWidth() -> Int { shown.reduce(0) { $0 + headings[$1].width + 1 } - 1 }
        var dropping = dropOrder[...]
        while width - valuesWidth() - address - 2 < minimumNameWidth, let next = dropping.popFirst() {
            shown.removeAll { $0 == next }
        }
        return (max(minimumNameWidth, width - valuesWidth() - address - 2), address, shown)
    }

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let health = model.health
        let (nameWidth, addressWidth, shown) = columnWidths(width: buffer.width)
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" NAME", x: 0, y: 1, role: .columnHeader, limit: nameWidth)
        var x = nameWidth + 1
        buffer.write("ADDRESS", x: x, y: 1, role: .columnHeader)
        x += addressWidth + 1
        for heading in shown.map({ headings[$0] }) {
            buffer.writeRight(heading.title, end: x + heading.width, y: 1, role: .columnHeader)
            x += heading.width + 1
        }
        let last = buffer.height - 2
        var y = 2
        if health.transmitters.isEmpty {
            // Wrapped, as every message: at 40 columns it ended at 'health shows once'.
            // A venue's scanners relay readings, never frames: it said 'No beacon heard yet' beside
            // a table of beacons, as if health would come.
            let message = model.totalTransmitterCount > 0
                ? "No transmitter matches the filter \"\(model.screenFilterText)\" (name, id or address)"
                : model.source.countsMessages
                ? "No health on a venue: its scanners send readings, not the beacon frames health is read from. Monitor a radio (hci0) or a capture for it."
                : "No beacon heard yet: health shows once a beacon frame arrives."
            buffer.writeWrapped(message, x: 2, y: y, lines: last - y + 1, role: .muted)
            return
        }
        // Every transmitter on a canvas shown through the screen (ScrollWindow): at 40x12 the tenth
        // of the demo's ten was left off the bottom with no sign it existed.
        let rows = health.transmitters.map { transmitter in
            (transmitter, findings: transmitter.findings.map(\.description)
                + transmitter.identities.flatMap { health.byIdentity[$0]?.duplicates ?? [] }.map(\.description))
        }
        var canvas = ScreenBuffer(width: buffer.width, height: rows.reduce(0) { $0 + 1 + 2 * $1.findings.count }, charset: buffer.charset)
        y = 0
        // Each transmitter and its findings a paragraph, named by its address: the one being read
        // stays at the top when its findings wrap anew or a transmitter is heard before it.
        var paragraphs = ScrollParagraphs { rows[$0].0.address.description }
        for (transmitter, findings) in rows {
            let first = y
            let role: StyleRole = findings.isEmpty ? .plain : .finding
            if !findings.isEmpty { canvas.put("!", x: 0, y: y, role: .finding) }
            let name = cutInTheMiddle(transmitter.name, width: nameWidth - 1, charset: canvas.charset)
            canvas.write(name, x: 1, y: y, role: role, limit: nameWidth - 1)
            x = nameWidth + 1
            canvas.write(address(transmitter.address, width: addressWidth, charset: canvas.charset), x: x, y: y, role: .plain)
            x += addressWidth + 1
            let values = HealthText.columns(transmitter, at: health.time)
            for index in shown {
                let (value, heading) = (values[index], headings[index])
                canvas.writeRight(value, end: x + heading.width, y: y, role: value == "-" ? .muted : .plain)
                x += heading.width + 1
            }
            y += 1
            // Each finding on up to two lines: a duplicate's (both addresses, levels and the id) ran
            // off an 80-column screen before the id.
            for finding in findings {
                y += canvas.writeWrapped(finding, x: 3, y: y, lines: 2, role: .finding)
            }
            paragraphs.append(lines: y - first)
        }
        ScrollWindow.show(canvas, paragraphs, scroll: model.scroll, anchor: model.scrollAnchor, top: 2, bottom: last + 1, into: &buffer)
    }

    /// The address, or its last three bytes after an ellipsis in a 9-cell column.
    static func address(_ address: BDAddress, width: Int, charset: Charset) -> String {
        let text = address.description
        return text.count <= width ? text : String(charset.ellipsis) + text.suffix(width - 1)
    }

    /// `text` in at most `width` cells: whole when it fits, else its head, an ellipsis and its
    /// tail. An id keeps its tail from the first `:` whole (major and minor, an Eddystone
    /// instance) while one head character still fits; any other text keeps two thirds as tail.
    static func cutInTheMiddle(_ text: String, width: Int, charset: Charset) -> String {
        guard width > 0, TerminalText.width(text, charset: charset) > width else { return text }
        guard width > 2 else { return String(text.prefix(width)) }
        let cells = text.map { TerminalText.columns(of: $0, charset: charset) }
        var tailBudget = (width - 1) * 2 / 3
        if let colon = text.firstIndex(of: ":") {
            let idTail = cells[text.distance(from: text.startIndex, to: colon)...].reduce(0, +)
            if idTail <= width - 2 { tailBudget = idTail }
        }
        var tailStart = cells.count, used = 0
        while tailStart > 0, used + cells[tailStart - 1] <= tailBudget {
            tailStart -= 1
            used += cells[tailStart]
        }
        var headEnd = 0, headUsed = 0
        let headBudget = width - 1 - used
        while headEnd < tailStart, headUsed + cells[headEnd] <= headBudget {
            headUsed += cells[headEnd]
            headEnd += 1
        }
        let characters = Array(text)
        return String(characters[..<headEnd]) + String(charset.ellipsis) + String(characters[tailStart...])
    }
}
