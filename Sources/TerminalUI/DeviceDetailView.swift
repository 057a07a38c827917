import Monitor

/// Enter on the device list (`d`): why presence puts a phone where it does, as a venue beacon's
/// detail pane says it for a beacon and ESPresense Companion's device page for a device. Its id
/// (on two lines at most, cut in the middle past that), its room and for how long, the runner-up
/// room and how far behind it is, the room gaining presence's evidence against it, then every
/// live scanner's reading (RSSI, level, distance, age), the placing one marked `>`. A device
/// presence forgot while shown keeps its last room and readings, dimmed, under a note saying so.
///
/// The id stays at the top; the rest scrolls under it (`ScrollWindow`), anchored by part: the
/// place, the runner-up, presence's evidence, the readings and which of their lines. A device
/// presence forgets while shown is said to be gone under its id; the detail never moves on to
/// another device by itself (the list's selection does, on Esc).
enum DeviceDetailView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        guard let shown = model.shownDevice else { return }
        let width = buffer.width
        var y = 1
        for line in idLines(shown.id, width: width - 2, charset: buffer.charset) {
            buffer.fill(y: y, role: .columnHeader)
            buffer.write(" " + line, x: 0, y: y, role: .columnHeader)
            y += 1
        }
        let gone = "No longer tracked: no live scanner has heard it within a reading's lifetime, so presence let it go. "
        guard let device = shown.device ?? shown.lastKnown else {
            buffer.writeWrapped(gone + "It shows here again if one hears it; Esc returns to the list.",
                                x: 2, y: y, lines: max(1, buffer.height - 1 - y), role: .muted)
            return
        }
        // A device presence forgot shows what it last knew, dimmed under the note: where the
        // visitor was last placed and by which scanners, until it is heard again or Esc.
        let lastKnown = shown.device == nil
        let table = VenueDetailView.readings(device.placement, width: width, charset: buffer.charset)
        let texts = (lastKnown ? [("gone", gone + "Last known:")] : [])
            + [("place", place(device)), ("runner-up", runnerUp(device)), ("presence", presence(device))]
        let wrapped = texts.map { name, text in
            (name, Wrap.words(text, width: width - 2, lines: name == "gone" ? 5 : 3, ellipsis: buffer.charset.ellipsis, charset: buffer.charset))
        }
        let readingLines = table.height + (device.placement.scanners.isEmpty ? 1 : 0)
        var canvas = ScreenBuffer(width: width, height: wrapped.reduce(readingLines) { $0 + $1.1.count }, charset: buffer.charset)
        var line = 0
        for (name, lines) in wrapped {
            let role: StyleRole = name == "gone" ? .muted : lastKnown || (name == "place" && device.room == nil) ? .stale : .plain
            for text in lines {
                canvas.write(" " + text, x: 0, y: line, role: role)
                line += 1
            }
        }
        for index in 0..<table.height {
            canvas.copyLine(index, of: table, to: line + index)
            if lastKnown { canvas.restyle(y: line + index, role: .stale) }
        }
        if device.placement.scanners.isEmpty { canvas.write("  No live scanner hears it.", x: 0, y: line + 1, role: .muted) }
        let paragraphs = ScrollParagraphs(wrapped.map { ($0.0, $0.1.count) } + [("readings", readingLines)])
        ScrollWindow.show(canvas, paragraphs, scroll: model.scroll, anchor: model.scrollAnchor, top: y, bottom: buffer.height - 1, into: &buffer)
    }

    /// The id in lines of `width` columns: one where it fits, else two, cut in the middle where
    /// even two cannot hold it (the decoder lets 256 bytes through), so its head and tail show.
    static func idLines(_ id: String, width: Int, charset: Charset) -> [String] {
        guard TerminalText.width(id, charset: charset) > width else { return [id] }
        let text = HealthView.cutInTheMiddle(id, width: 2 * width, charset: charset)
        let (head, rest) = Wrap.split(text, columns: width, charset: charset)
        return rest.isEmpty ? [head] : [head, rest]
    }

    static func place(_ device: VenueDevice) -> String {
        guard let room = device.room else { return "In no room yet (\(device.reading.scanner) hears it best)" }
        let since = device.inRoomFor.map { " for " + CellFormat.clock($0) } ?? ""
        return "In \(room)\(since), placed by \(device.reading.scanner)"
    }

    static func runnerUp(_ device: VenueDevice) -> String {
        guard let other = device.placement.runnerUp else { return "Runner-up: none (no other room hears it)" }
        let behind = device.reading.level - other.level
        return "Runner-up \(other.room), \(CellFormat.fixed(behind, decimals: 1)) dB weaker (\(other.scanner))"
    }

    /// Presence's evidence (docs/venue.md "The presence rule"): the room moves, or is first
    /// placed, when a challenger's lead beyond the hysteresis piles up to the threshold.
    static func presence(_ device: VenueDevice) -> String {
        guard let challenge = device.challenge else {
            return device.room.map { "No room is gaining on \($0)" } ?? "No room has evidence yet"
        }
        let evidence = "\(CellFormat.fixed(challenge.evidence, decimals: 1)) of \(CellFormat.fixed(challenge.threshold, decimals: 0)) dB·s"
        return "Evidence for \(challenge.room): \(evidence) to " + (device.room == nil ? "place it there" : "move it there")
    }
}
