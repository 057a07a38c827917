import Monitor

/// `e`: the enter/exit event log, newest at the bottom, as many as fit.
enum EventLogView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" Events (\(model.events.count))", x: 0, y: 1, role: .columnHeader)
        buffer.writeRight("TIME", end: 22, y: 1, role: .columnHeader)
        buffer.write("KIND", x: 23, y: 1, role: .columnHeader)
        buffer.write("WHAT", x: 32, y: 1, role: .columnHeader)
        let capacity = max(0, buffer.height - 3)
        if model.events.isEmpty {
            buffer.write("  No region events yet.", x: 0, y: 2, role: .muted)
            return
        }
        // Each message wrapped under WHAT, up to `linesPerEvent`: a reconnect's reason or a refused
        // command's explanation ran off a 100-column screen in the middle of the reason.
        var rows: [(event: MonitorEvent?, text: String)] = []
        for event in model.events.reversed() {
            let lines = Wrap.words(event.message, width: max(1, buffer.width - 32), lines: linesPerEvent, ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
            let fitting = rows.isEmpty ? Array(lines.prefix(capacity)) : lines
            guard rows.count + fitting.count <= capacity else { break }
            rows.insert(contentsOf: fitting.enumerated().map { ($0.offset == 0 ? event : nil, $0.element) }, at: 0)
        }
        for (offset, row) in rows.enumerated() {
            let y = 2 + offset
            if let event = row.event {
                buffer.writeRight(CellFormat.clock(event.time), end: 22, y: y, role: .muted)
                buffer.write(event.kind.rawValue, x: 23, y: y, role: role(event.kind))
            }
            buffer.write(row.text, x: 32, y: y, role: .plain)
        }
    }

    /// Lines one event may take; a longer message ends in an ellipsis.
    static let linesPerEvent = 4

    static func role(_ kind: MonitorEvent.Kind) -> StyleRole {
        switch kind {
        case .enter: .immediate
        case .exit: .far
        case .info: .plain
        case .warning: .warning
        }
    }
}
