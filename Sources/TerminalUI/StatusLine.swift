import Monitor

/// The last line: the source and its state, adverts/s, malformed count, recording, replay position;
/// or the filter prompt while `/` is being typed.
enum StatusLine {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let y = buffer.height - 1
        buffer.fill(y: y, role: .status)
        if model.isEditingFilter {
            let prompt = " / filter (text or UUID[:major[:minor]]): \(model.filterText)_"
            buffer.write(prompt, x: 0, y: y, role: .status)
            return
        }
        let separator = buffer.charset.separator
        var x = 0
        func put(_ text: String, _ role: StyleRole) {
            x += buffer.write(text, x: x, y: y, role: role)
        }
        let source = model.source
        put(" \(source.name) ", .status)
        switch source.state {
        case .scanning: put("scanning", .status)
        case .replaying(let speed): put("replaying at \(speedText(speed))", .status)
        case .paused: put("paused", .statusWarning)
        case .lost(let reason): put("lost: \(reason)", .statusWarning)
        case .reconnecting(let attempt): put("reconnecting (attempt \(attempt))", .statusWarning)
        case .finished: put("replay finished", .status)
        }
        if let position = source.replayPosition {
            var clock = CellFormat.clock(position)
            if let duration = source.replayDuration { clock += "/" + CellFormat.clock(duration) }
            put(separator + clock, .status)
        }
        put(separator + CellFormat.fixed(source.advertsPerSecond, decimals: 0) + " adv/s", .status)
        if source.malformedCount > 0 {
            put(separator, .status)
            put("\(source.malformedCount) malformed", .statusWarning)
        }
        if let file = source.recordingFile {
            put(separator, .status)
            put(buffer.charset == .unicode ? "● REC \(file)" : "* REC \(file)", .recording)
        }
        let hint = " ? help "
        if x + hint.count <= buffer.width { buffer.writeRight(hint, end: buffer.width, y: y, role: .status) }
    }

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? "\(Int(speed))x" : CellFormat.fixed(speed, decimals: 2) + "x"
    }
}
