import Monitor

/// `e`: the enter/exit event log, newest at the bottom, scrolled back with the selection keys.
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
        // While `/` narrows the log, the count says of how many: "Events (12 of 480)".
        let count = model.events.count == model.totalEventCount ? "\(model.events.count)" : "\(model.events.count) of \(model.totalEventCount)"
        buffer.writeRight("Events (\(count)) ", end: width, y: 1, role: .columnHeader)
        if model.events.isEmpty {
            if model.totalEventCount == 0 {
                buffer.write("  No region events yet.", x: 0, y: 2, role: .muted)
            } else {
                buffer.writeWrapped("No event matches the filter \"\(model.screenFilterText)\" (kind or message)", x: 2, y: 2,
                                    lines: max(1, buffer.height - 3), role: .muted)
            }
            return
        }
        // Each message wrapped under WHAT, up to `linesPerEvent`: a reconnect's reason or a refused
        // command's explanation ran off a 100-column screen in the middle of the reason. Every event
        // kept (up to MonitorFeed.eventLimit) is there to scroll back to: only the newest that fit
        // could be read before. It opens at its end, where the newest are.
        let lineWidth = max(1, width - layout.messageX)
        let charset = buffer.charset
        func wrapped(_ event: MonitorEvent) -> [String] {
            Wrap.words(event.message, width: lineWidth, lines: linesPerEvent, ellipsis: charset.ellipsis, charset: charset)
        }
        // Each event a paragraph. A message of no more UTF-8 bytes than the line has columns takes
        // one line (no character takes more columns than bytes), so only longer ones are wrapped to
        // be counted: wrapping all 500 took 27 ms a frame in a debug build.
        var paragraphs = ScrollParagraphs { paragraph(model.events[$0]) }
        for event in model.events {
            paragraphs.append(lines: event.message.utf8.count <= lineWidth ? 1 : max(1, wrapped(event).count))
        }
        // Scrolled back, the line the reader was at stays the first one read (under the marker of
        // earlier lines) however the log is wrapped now: a resize moved it by the lines its events
        // gained or lost above it.
        var shown: (index: Int, lines: [String]) = (-1, [])
        ScrollWindow.show(paragraphs, scroll: model.scroll, anchor: model.scrollAnchor, top: 2, bottom: buffer.height - 1, markAbove: true,
                          into: &buffer) { line, y, buffer in
            let low = paragraphs.paragraph(holding: line)
            let event = model.events[low]
            if shown.index != low { shown = (low, wrapped(event)) }
            let offset = line - paragraphs.starts[low]
            if offset == 0 {
                buffer.writeRight(CellFormat.clock(event.shownTime), end: layout.timeEnd, y: y, role: .muted)
                buffer.write(event.kind.rawValue, x: layout.kindX, y: y, role: role(event.kind))
            }
            if offset < shown.lines.count { buffer.write(shown.lines[offset], x: layout.messageX, y: y, role: .plain) }
        }
    }

    /// An event's name as an anchor's paragraph: all it holds, so an equal event is the same one.
    static func paragraph(_ event: MonitorEvent) -> String {
        "\(event.time) \(event.kind.rawValue) \(event.message)"
    }

    /// Where the three columns go: a space, the times right-aligned, a space, the kinds, two spaces.
    struct Layout {
        var timeEnd: Int
        var kindX: Int { timeEnd + 1 }
        var messageX: Int { kindX + Self.kindColumns + 2 }

        /// The widest kind, `warning`.
        static let kindColumns = 7

        init(_ events: [MonitorEvent]) {
            let widest = events.reduce(4) { max($0, CellFormat.clock($1.shownTime).count) }
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
