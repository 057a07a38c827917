import Monitor

/// The last line: the source and its state (a `--read-only` venue view says so), replay position, adverts/s (a venue's broker:
/// messages/s, `msg/s`), malformed, dropped and evicted counts, recording, a key's notice;
/// or the filter prompt while `/` is being typed. When the line is too narrow, a capture path's
/// directories give way first (it keeps "…/" and its file name), then the help hint, then adverts/s
/// (the hint comes back if that makes room for it), then the replay position, then the front of the
/// file name (its kind, `sim:` or `tcp:`, stays), then the end of a key's notice: the state,
/// `read-only`, malformed count and recording indicator are what a technician must not miss.
///
/// The line is laid out in `width - 1` columns: ncurses cannot draw the bottom-right cell without
/// scrolling, so `CursesTerminal` leaves it out, and text put there would be lost on a real screen.
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
            buffer.write(fitted(prompt(model), width: buffer.width - 1, charset: buffer.charset), x: 0, y: y, role: .status)
            return
        }
        let separator = buffer.charset.separator
        let source = model.source
        var segments = stateSegments(source.state, separator: separator)
        // Never given way: a view that publishes nothing must not pass for the one feeding a backend.
        if source.readOnly { segments.append(Segment(text: separator + "read-only", role: .status)) }
        // A key's notice follows the state, where the key's user looks; it is placed once the
        // rest is laid out (below), so it gives way before the counts and the recording indicator.
        let noticeIndex = segments.count
        if let position = source.replayPosition {
            var clock = CellFormat.clock(position)
            if let duration = source.replayDuration { clock += "/" + CellFormat.clock(duration) }
            segments.append(Segment(text: separator + clock, role: .status, dropRank: 2))
        }
        segments.append(Segment(text: separator + CellFormat.fixed(source.advertsPerSecond, decimals: 0) + (source.countsMessages ? " msg/s" : " adv/s"), role: .status, dropRank: 1))
        if source.malformedCount > 0 {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: "\(source.malformedCount) malformed", role: .statusWarning))
        }
        if source.droppedPackets > 0 {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: "\(source.droppedPackets) dropped", role: .statusWarning))
        }
        if source.evictedBeacons > 0 {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: "\(source.evictedBeacons) evicted", role: .statusWarning))
        }
        if let file = source.recordingFile {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: (buffer.charset.isUnicode ? "● REC " : "* REC ") + file, role: .recording))
        }
        if let file = source.exportFile {
            segments.append(Segment(text: separator, role: .status))
            segments.append(Segment(text: "CSV " + file, role: .recording))
        }
        let hint = " ? help"
        let usable = buffer.width - 1
        func width(_ list: [Segment]) -> Int {
            list.reduce(0) { $0 + TerminalText.width($1.text, charset: buffer.charset) }
        }
        // " name" in front of the state segments. A path's directories give way before anything
        // else: `nameFloor` is the name down to "…" and its file name.
        let nameFloor = TerminalText.width(fileNameFloor(source.name, charset: buffer.charset), charset: buffer.charset)
        let noticeWidth = source.notice.map { TerminalText.width(separator + $0, charset: buffer.charset) } ?? 0
        func fits(hint shown: Bool) -> Bool { 1 + nameFloor + width(segments) + noticeWidth + (shown ? hint.count : 0) <= usable }
        for rank in 1...2 where !fits(hint: true) && !fits(hint: false) {
            segments.removeAll { $0.dropRank == rank }
        }
        let showsHint = fits(hint: true)
        if let notice = source.notice {
            // Cut at its end to the room the shortest name (its kind and 2 columns), the state, the
            // counts and the recording indicator leave: placed whole, it pushed `● REC
            // beacontop-20261125-104512.btsnoop` off an 80-column line for its 4 s. The name gives
            // way first, as before: the notice answers the key just pressed. Left out where fewer
            // than 8 columns of it would show.
            let shortestName = TerminalText.width(cut(source.name, width: 0, charset: buffer.charset), charset: buffer.charset)
            let room = usable - 1 - shortestName - width(segments) - TerminalText.width(separator, charset: buffer.charset)
            if room >= 8 {
                segments.insert(contentsOf: [Segment(text: separator, role: .status),
                                             Segment(text: TerminalText.width(notice, charset: buffer.charset) <= room ? notice : TitleBar.cut(notice, to: room, charset: buffer.charset),
                                                     role: .statusWarning)],
                                at: noticeIndex)
            }
        }
        let name = cut(source.name, width: usable - 1 - width(segments) - (showsHint ? hint.count : 0), charset: buffer.charset)
        var x = buffer.write(" " + name, x: 0, y: y, role: .status, limit: usable)
        for segment in segments { x += buffer.write(segment.text, x: x, y: y, role: segment.role, limit: usable - x) }
        if showsHint { buffer.writeRight(hint, end: usable, y: y, role: .status) }
    }

    /// The filter prompt: what the filter of the screen shown matches, and the text so far.
    static func prompt(_ model: MonitorViewModel) -> String {
        switch model.screen {
        case .health: " / health (name, id, address): \(model.screenFilterText)_"
        case .devices: " / devices (id, room, scanner): \(model.screenFilterText)_"
        case .scanners: " / scanners (name, room, state): \(model.screenFilterText)_"
        case .events: " / events (kind, message): \(model.screenFilterText)_"
        default: " / filter (text or UUID[:major[:minor]]): \(model.filterText)_"
        }
    }

    /// The prompt in `width` columns, the text typed and its cursor always shown: what the filter
    /// matches gives way first (` / filter: chess_`), then the start of the text (`/ …ssmen_`).
    /// Cut at the edge, the prompt alone took 41 columns, so at 40 what was typed never showed.
    static func fitted(_ prompt: String, width: Int, charset: Charset) -> String {
        guard TerminalText.width(prompt, charset: charset) > width else { return prompt }
        var short = prompt
        if let open = short.firstIndex(of: "("), let close = short[open...].firstIndex(of: ")") {
            short.removeSubrange(short.index(before: open)...close)
        }
        guard TerminalText.width(short, charset: charset) > width, let colon = short.firstIndex(of: ":") else { return short }
        let head = String(short[...colon]) + " " + String(charset.ellipsis)
        // The end that fits, counted from the cursor back (a pasted text can be long).
        let textStart = short.index(colon, offsetBy: 2)
        var used = TerminalText.width(head, charset: charset)
        var start = short.endIndex
        while start > textStart {
            let previous = short.index(before: start)
            let columns = TerminalText.columns(of: short[previous], charset: charset)
            if used + columns > width { break }
            used += columns
            start = previous
        }
        return head + String(short[start...])
    }

    /// What follows the source name: its state, a warning role where it needs attention.
    private static func stateSegments(_ state: SourceStatus.State, separator: String) -> [Segment] {
        switch state {
        case .scanning: [Segment(text: " scanning", role: .status)]
        case .replaying(let speed): [Segment(text: " replaying at \(speedText(speed))", role: .status)]
        case .finished: [Segment(text: " replay finished", role: .status)]
        case .nothingReplayed(let reason): [Segment(text: " ", role: .status), Segment(text: "nothing replayed: \(reason)", role: .statusWarning)]
        // The speed a `+`/`-` chose while paused: `paused` alone hid it once the key's notice went.
        case .paused(let speed):
            [Segment(text: " ", role: .status), Segment(text: speed == 1 ? "paused" : "paused\(separator)\(speedText(speed))", role: .statusWarning)]
        case .lost(let reason): [Segment(text: " ", role: .status), Segment(text: "lost: \(reason)", role: .statusWarning)]
        case .reconnecting(let attempt):
            [Segment(text: " ", role: .status), Segment(text: "reconnecting (attempt \(attempt))", role: .statusWarning)]
        // The reason (a refused command and its explanation) is longer than a status line: the log has it.
        // The delay is the one chosen at the refusal (drawn from state, it does not count down); it
        // gives way with adv/s on a narrow line.
        case .notScanning(_, let retryIn):
            [Segment(text: " ", role: .status), Segment(text: "not scanning since the reconnect (e: why)", role: .statusWarning)]
                + (retryIn.map { [Segment(text: "\(separator)retrying in \(Int($0.rounded(.up))) s", role: .statusWarning, dropRank: 1)] } ?? [])
        }
    }

    /// How far a source name may give way before the hint, the rate or the position do: a file
    /// path to "…" and its file name ("…/walk.btsnoop", "sim:…/museum.yaml"), any other name (a URL,
    /// a device, a host) whole.
    static func fileNameFloor(_ name: String, charset: Charset) -> String {
        let kind = kind(of: name)
        let path = name.dropFirst(kind.count)
        guard !kind.hasSuffix("//"), let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else { return name }
        return kind + String(charset.ellipsis) + path[slash...]
    }

    /// The front of a source name that says what kind of source it is, kept whole by every cut: at
    /// 40 columns `sim:demo/museum.yaml` read `…:demo/museum.yaml`. Empty for a capture file (its
    /// name is its path); a whole `hciN[:channel]` is never cut.
    static func kind(of name: String) -> Substring {
        if name.wholeMatch(of: /hci[0-9]+(:[a-z]+)?/) != nil { return Substring(name) }
        for prefix in ["sim:", "serial:", "unix:", "tcp:", "mqtt://", "mqtts://"] where name.hasPrefix(prefix) {
            return name.prefix(prefix.count)
        }
        return ""
    }

    /// `name` in `width` columns, its kind whole and at least 2 columns of the rest: a path or a
    /// host and port cut from the front behind an ellipsis ("sim:…ms/museum.yaml"; `~` in an ASCII
    /// locale, like every other cut), the end being the part that tells captures apart; a broker's
    /// URL from its end, the host being what tells brokers apart.
    static func cut(_ name: String, width: Int, charset: Charset) -> String {
        guard TerminalText.width(name, charset: charset) > width else { return name }
        let kind = kind(of: name)
        let rest = String(name.dropFirst(kind.count))
        guard !rest.isEmpty else { return name }
        // What is left after the counts and the recording indicator, which must not be pushed off
        // the line: a floor of 8 columns here cut a venue recording's '12 malformed' to
        // '12 malforme' at 40 columns (name, state and count one column too many).
        let room = max(2, width) - TerminalText.width(String(kind), charset: charset)
        guard room >= 2 else { return kind + String(charset.ellipsis) }
        if kind.hasSuffix("//") { return kind + TitleBar.cut(rest, to: room, charset: charset) }
        return kind + leftTruncated(rest, width: room, charset: charset)
    }

    /// `text` cut from the front to fit `width` columns behind an ellipsis, at a `/` if one is left.
    private static func leftTruncated(_ text: String, width: Int, charset: Charset) -> String {
        guard TerminalText.width(text, charset: charset) > width else { return text }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = TerminalText.columns(of: character, charset: charset)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        // At a directory where one is in reach: "…/walk.btsnoop", not "…s/walk.btsnoop".
        var tail = String(kept.reversed())
        if let slash = tail.firstIndex(of: "/"), slash > tail.startIndex { tail = String(tail[slash...]) }
        return String(charset.ellipsis) + tail
    }

    static func speedText(_ speed: Double) -> String {
        guard speed.isFinite else { return "max" }
        return speed == speed.rounded() ? "\(Int(speed))x" : CellFormat.fixed(speed, decimals: 2) + "x"
    }
}
