import Monitor

/// The last line: the source and its state, replay position, adverts/s, malformed count, recording;
/// or the filter prompt while `/` is being typed. When the line is too narrow, the help hint goes
/// first, then adverts/s, then the replay position: the state, malformed count and recording
/// indicator are what a technician must not miss.
enum StatusLine {
    private struct Segment {
        var text: String
        var role: StyleRole
        /// Lower goes first when the line is too narrow; nil never goes.
        var dropRank: Int?
    }

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let y = buffer.height - 1
        buffer.fill(y: y, role: .status)
        if model.isEditingFilter {
            let prompt = " / filter (text or UUID[:major[:minor]]): \(model.filterText)_"
            buffer.write(prompt, x: 0, y: y, role: .status)
            return
        }
        let separator = buffer.charset.separator
        let source = model.source
        var segments: [Segment] = []
        switch source.state {
        case .scanning: segments.append(Segment(text: " \(source.name) scanning", role: .status))
        case .replaying(let speed): segments.append(Segment(text: " \(source.name) replaying at \(speedText(speed))", role: .status))
        case .finished: segments.append(Segment(text: " \(source.name) replay finished", role: .status))
        case .paused:
            segments.append(Segment(text: " \(source.name) ", role: .status))
            segments.append(Segment(text: "paused", role: .statusWarning))
        case .lost(let reason):
            segments.append(Segment(text: " \(source.name) ", role: .status))
            segments.append(Segment(text: "lost: \(reason)", role: .statusWarning))
        case .reconnecting(let attempt):
            segments.append(Segment(text: " \(source.name) ", role: .status))
            segments.append(Segment(text: "reconnecting (attempt \(attempt))", role: .statusWarning))
        }
        if let position = source.replayPosition {
            var clock = CellFormat.clock(position)
            if let duration = source.replayDuration { clock += "/" + CellFormat.clock(duration) }
            segments.append(Segment(text: separator + clock, role: .status, dropRank: 2))
        }
        segments.append(Segment(text: separator + CellFormat.fixed(source.advertsPerSecond, decimals: 0) + " adv/s", role: .status, dropRank: 1))
        if source.malformedCount > 0 {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: "\(source.malformedCount) malformed", role: .statusWarning))
        }
        if let file = source.recordingFile {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: (buffer.charset == .unicode ? "● REC " : "* REC ") + file, role: .recording))
        }
        let hint = " ? help "
        func width(_ list: [Segment]) -> Int {
            list.reduce(0) { $0 + TerminalText.width($1.text, charset: buffer.charset) }
        }
        var showsHint = width(segments) + hint.count <= buffer.width
        for rank in 1...2 where !showsHint && width(segments) > buffer.width {
            segments.removeAll { $0.dropRank == rank }
        }
        showsHint = width(segments) + hint.count <= buffer.width
        var x = 0
        for segment in segments { x += buffer.write(segment.text, x: x, y: y, role: segment.role) }
        if showsHint { buffer.writeRight(hint, end: buffer.width, y: y, role: .status) }
    }

    static func speedText(_ speed: Double) -> String {
        guard speed.isFinite else { return "max" }
        return speed == speed.rounded() ? "\(Int(speed))x" : CellFormat.fixed(speed, decimals: 2) + "x"
    }
}
