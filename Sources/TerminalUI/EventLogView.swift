import Monitor

/// `e`: the enter/exit event log, newest at the bottom, as many as fit.
///
/// The columns are as wide as what they hold (the time as wide as the longest time listed, `01:23`
/// or `1:02:03`; the kind as wide as `warning`), so the message starts at column 16 on every screen:
/// it started at a fixed column 32, which left a 40-column screen 8 columns for it.
enum EventLogView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let layout = Layout(model.events)
        let width = buffer.width
        buffer.fill(y: 1, role: .columnHeader)
        buffer.writeRight("TIME", end: layout.timeEnd, y: 1, role: .columnHeader)
        buffer.write("KIND", x: layout.kindX, y: 1, role: .columnHeader)
        buffer.write("WHAT", x: layout.messageX, y: 1, role: .columnHeader)
        buffer.writeRight("Events (\(model.events.count)) ", end: width, y: 1, role: .columnHeader)
        let capacity = max(0, buffer.height - 3)
        if model.events.isEmpty {
            buffer.write("  No region events yet.", x: 0, y: 2, role: .muted)
            return
        }
        // Each message wrapped under WHAT, up to `linesPerEvent`: a reconnect's reason or a refused
        // command's explanation ran off a 100-column screen in the middle of the reason.
        var rows: [(event: MonitorEvent?, text: String)] = []
        for event in model.events.reversed() {
            let lines = Wrap.words(event.message, width: max(1, width - layout.messageX), lines: linesPerEvent, ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
            let fitting = rows.isEmpty ? Array(lines.prefix(capacity)) : lines
            guard rows.count + fitting.count <= capacity else { break }
            rows.insert(contentsOf: fitting.enumerated().map { ($0.offset == 0 ? event : nil, $0.element) }, at: 0)
        }
        for (offset, row) in rows.enumerated() {
            let y = 2 + offset
            if let event = row.event {
                buffer.writeRight(CellFormat.clock(event.time), end: layout.timeEnd, y: y, role: .muted)
                buffer.write(event.kind.rawValue, x: layout.kindX, y: y, role: role(event.kind))
            }
            buffer.write(row.text, x: layout.messageX, y: y, role: .plain)
        }
    }

    /// Where the three columns go: a space, the times right-aligned, a space, the kinds, two spaces.
    struct Layout {
        var timeEnd: Int
        var kindX: Int { timeEnd + 1 }
        var messageX: Int { kindX + Self.kindColumns + 2 }

        /// The widest kind, `warning`.
        static let kindColumns = 7

        init(_ events: [MonitorEvent]) {
            let widest = events.reduce(4) { max($0, CellFormat.clock($1.time).count) }
            timeEnd = 1 + widest
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
