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
        for (offset, event) in model.events.suffix(capacity).enumerated() {
            let y = 2 + offset
            let time = CellFormat.clock(event.time)
            buffer.writeRight(time, end: 22, y: y, role: .muted)
            buffer.write(event.kind.rawValue, x: 23, y: y, role: role(event.kind))
            buffer.write(event.message, x: 32, y: y, role: .plain)
        }
    }

    static func role(_ kind: MonitorEvent.Kind) -> StyleRole {
        switch kind {
        case .enter: .immediate
        case .exit: .far
        case .info: .plain
        case .warning: .warning
        }
    }
}
