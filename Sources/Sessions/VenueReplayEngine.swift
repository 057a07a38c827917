import PacketSources

/// A venue recording's replay, stepped by its thread with the wall time: one step hands out an
/// event, asks to wait (a message not yet due, or paused), or ends. Its transport controls are a
/// capture replay's (`ReplayControl`: pause, step one message, speed, seek) and so is its pacing
/// (`ReplayPacer`); it never reads a clock, so every control is tested without waiting.
///
/// Seeking differs from a capture's `ReplayEngine` because the venue view downstream builds state
/// (presence, open visits, occupancy) from every message, so none may be skipped:
/// - forward, the messages up to the target are still delivered, unpaced: time is data, so the
///   view is then what a straight play to the target would have made it;
/// - back, the recording is read again, after a `.rewound` notice that tells the view to start
///   afresh, and delivered unpaced up to the target: from the latest checkpoint at or before the
///   target when the consumer keeps them (`ReplayControl.acceptCheckpoints`, the monitor), else
///   from its start. A checkpoint is a byte offset and a message time here and, in the consumer,
///   the view as it was when its `.checkpoint` notice passed: one before the first message
///   delivered in a pass, then one every `checkpointSpacing` seconds of recording. One that cannot
///   be trusted (the file replaced under its name, or its line no longer the message it was) is
///   not used: the recording is read from its start as before. Costs in docs/venue.md.
/// `--from` and `--to` cut the recording as they cut a capture (messages before `from` are never
/// delivered; the replay ends after `to`); `--loop` starts it over with its times shifted so they
/// keep increasing, and the view goes on across passes. A seek back rebuilds the current pass.
struct VenueReplayEngine {
    typealias Action = ReplayControl.Step

    /// Messages due within this many seconds go out together (`ReplayEngine.batchWindow`'s
    /// measured trade-off: one timer wake-up per message costs far more than the view can tell).
    static let batchWindow = 0.05

    /// The longest wait asked for in a silence, so the position moves on at least once a second
    /// (`ReplayEngine.longestWait`); a control request wakes the thread sooner.
    static let longestWait = 1.0

    let name: String
    let options: ReplayOptions
    let control: ReplayControl
    /// Opens the recording again: from its start, or resuming at a checkpoint's line.
    let open: @Sendable (_ resume: (offset: Int, line: Int)?) throws(VenueRecordingError) -> VenueRecordingReader

    private var reader: VenueRecordingReader?
    /// Notices to hand out before the next message (a seek's `.rewound`, a read error's end).
    private var queue: [SourceEvent] = []
    private var pending: BrokerMessage?
    /// Where the pending message's line is and its receive time as recorded (a checkpoint taken
    /// before it resumes there).
    private var pendingLine: (offset: Int, line: Int, file: FileIdentity, recorded: Double)?
    /// This pass's checkpoints, oldest first, and the ids the consumer is still to be told to drop.
    private var marks: [Mark] = []
    private var dropped: [Int] = []
    private var lastMarkID = 0
    /// Seconds into the recording from which the next message delivered is a checkpoint (nil: the next one).
    private var nextMark: Double?
    private var markSpacing = Self.checkpointSpacing
    private var pacer: ReplayPacer?
    /// The first message's time this pass (before the loop's shift): positions and the window count from it.
    private var start: Double?
    private var firstDelivered: Double?
    private var lastDelivered: Double?
    /// Seconds into the recording of the last message read this pass, delivered or not.
    private var lastRead: Double?
    /// Where the replay is: the last message delivered, or the target a seek reached.
    private var reached: Double?
    /// The recording time a seek aims at: messages before it are delivered unpaced.
    private var catchUp: Double?
    private var loopOffset = 0.0
    /// The replay's time for each message read, in file order: its receive time, except that a
    /// step back of the recording's clock is a step of zero, as `replay` takes it
    /// (`VenueReplay.stepBackTolerance`). Every time the engine works with is this one (pacing, the
    /// position, `--from`/`--to`, a seek's target, checkpoints), as a capture's (`ReplayEngine`):
    /// taken on the times handed on only, the position ran back with the recording's clock and ←
    /// after the step aimed at times the recording holds twice, landing a pass earlier. Started
    /// afresh with the reader (a loop, a seek back from the start) or taken from a checkpoint.
    private var clock = CaptureClock(tolerance: VenueReplay.stepBackTolerance)
    private var loops = 0
    private var paused = false
    private var delivered = 0
    private var stopRequested = false
    private var finished = false
    /// At the end with `holdAtEnd`: waiting for a seek back.
    private var held = false

    /// A replay of what `reader` reads; `open` opens the recording again for a seek back or a loop.
    init(name: String, options: ReplayOptions, control: ReplayControl, reader: VenueRecordingReader,
         open: @escaping @Sendable (_ resume: (offset: Int, line: Int)?) throws(VenueRecordingError) -> VenueRecordingReader) {
        self.name = name
        self.options = options
        self.control = control
        self.open = open
        self.reader = reader
    }

    /// Ends the replay at the next step (with an `.ended` notice).
    mutating func stop() { stopRequested = true }

    mutating func step(wall: Double) -> Action {
        if !queue.isEmpty { return .emit(queue.removeFirst()) }
        if finished { return .end }
        if stopRequested { return .emit(finish("stopped after \(delivered) messages")) }
        if held { return heldStep() }
        // The first message is read before a seek is taken: a seek counts from it.
        if pending == nil, let action = readNext() { return action }
        if let delta = control.takeSeek() {
            seek(by: delta)
            if !queue.isEmpty { return .emit(queue.removeFirst()) }
            if pending == nil, let action = readNext() { return action }
        }
        guard let message = pending else { return .end }
        if let notice = checkpoint(before: message) { return .emit(notice) }
        let time = message.receivedAt
        if pacer == nil {
            pacer = ReplayPacer(captureStart: time, wallStart: wall, speed: options.speed)
            if paused { pacer!.pause(atWall: wall, lastCaptureTime: time) }
        }
        if let speed = control.takeSpeed() { pacer!.setSpeed(speed, atWall: wall, lastCaptureTime: lastDelivered ?? time) }
        if control.isPaused != paused {
            paused.toggle()
            if paused {
                pacer!.pause(atWall: wall, lastCaptureTime: lastDelivered ?? time)
                if catchUp == nil { reach(pacer!.pausedAt, before: time) }
            } else {
                pacer!.resume(atWall: wall)
            }
        }
        if let target = catchUp, time >= target {
            catchUp = nil
            pacer!.restart(captureStart: target, atWall: wall)
            reached = target
            control.moved(to: target - (start ?? target))
        }
        if catchUp == nil, let reached, reached - time > Self.batchWindow {
            // A message received out of order (up to `VenueReplay.stepBackTolerance` late; a longer
            // step back is one of zero already, `clock`): paced on from it.
            pacer!.restart(captureStart: time, atWall: wall)
        }
        if catchUp == nil {
            if paused {
                // No timer while paused: the control's semaphore wakes the thread at a request.
                guard control.takeStep() else { return .wait(.infinity) }
                pacer!.stepped(to: time)
            } else if let delay = pacer!.delay(until: time, atWall: wall), delay > Self.batchWindow {
                reach(pacer!.captureTime(atWall: wall), before: time)
                return .wait(Swift.min(delay, Self.longestWait))
            }
        }
        pending = nil
        if firstDelivered == nil { firstDelivered = time }
        lastDelivered = time
        reached = time
        delivered += 1
        control.delivered(position: time - (start ?? time))
        var shifted = message
        shifted.receivedAt = time + loopOffset
        return .emit(.brokerMessage(shifted))
    }

    /// Time runs on between messages, as in a capture's replay (`ReplayEngine.reach`): while the
    /// next message is not yet due the position follows the pacer's clock, at most up to that
    /// message, so the status line's clock moves through a silence (it stood at the last message,
    /// which looked like a hung replay) and a seek counts from the time shown.
    private mutating func reach(_ capture: Double?, before messageTime: Double) {
        guard let capture, capture.isFinite, let start else { return }
        let time = Swift.min(capture, messageTime)
        guard time > (reached ?? start) else { return }
        reached = time
        control.moved(to: time - start)
    }

    /// Ends the replay: returns the `.ended` notice to hand out; every step after it is `.end`.
    private mutating func finish(_ reason: String) -> SourceEvent {
        finished = true
        reader = nil
        pending = nil
        return .notice(.ended(source: name, reason: reason))
    }

    /// The end of the recording (or of what could be read of it): `.pastTheEnd` when nothing was
    /// delivered because `--from` lies beyond its last message; held there for a seek back
    /// (`holdAtEnd`, the monitor) otherwise, as a capture's replay holds (`ReplayEngine.end`).
    private mutating func ending() -> SourceEvent {
        let reason = "end of replay after \(delivered) messages"
        if delivered == 0, let from = options.from, let last = lastRead, last < from {
            _ = finish(reason)
            return .notice(.pastTheEnd(source: name, from: from, last: last))
        }
        guard options.holdAtEnd, let start else { return finish(reason) }
        held = true
        pending = nil
        catchUp = nil
        if let last = lastRead {
            let end = start + (options.to.map { Swift.min($0, last) } ?? last)
            if end > (reached ?? start) {
                reached = end
                control.moved(to: end - start)
            }
        }
        return .notice(.ended(source: name, reason: reason))
    }

    /// Held at the end: no timer until a request. A seek back rebuilds the view and plays again
    /// (its `.rewound` follows the notice that turns the status back to playing); a seek forward
    /// or a step has nothing to go to and is dropped with one notice saying so.
    private mutating func heldStep() -> Action {
        let delta = control.takeSeek()
        guard let delta, delta < 0 else { return control.forwardAtHeldEnd(asked: delta != nil, source: name) }
        held = false
        seek(by: delta)
        return .emit(.notice(.resumedFromEnd(source: name)))
    }

    /// Aims at `delta` seconds from where the replay is (or from the target of a seek still
    /// catching up, so presses add up), never before the start of the window.
    private mutating func seek(by delta: Double) {
        guard let start, !finished else { return }
        let here = catchUp ?? reached ?? start
        let target = Swift.max(here + delta, start + (options.from ?? 0))
        if delta < 0 {
            let checkpoint = resume(before: target)
            if checkpoint == nil {
                do { reader = try open(nil) } catch {
                    queue.append(finish("replay stopped: cannot reopen to seek: \(error)"))
                    return
                }
                clock = CaptureClock(tolerance: VenueReplay.stepBackTolerance)
                pending = nil
                marks.removeAll()
                nextMark = nil
            }
            queue.append(.notice(.rewound(source: name, target: target + loopOffset, resumeFrom: checkpoint)))
        }
        catchUp = target
    }

    /// Reads until a message inside the window is pending; returns an action for anything else
    /// (a bad line, a loop, the end).
    private mutating func readNext() -> Action? {
        while true {
            let message: BrokerMessage?
            do { message = try reader?.next() } catch {
                // Worded as `replay` and docs/formats.md word it ("FILE: line N has no number "t""):
                // scan and the monitor said "has no number "t" (line N)".
                let problem = error.line > 0 ? "line \(error.line) \(error.problem)" : error.problem
                let warning = SourceEvent.notice(.warning(source: name, message: "\(problem); replayed up to there"))
                // A cut last line is where the recording ends (the reader's next read is its end):
                // said on the first pass, then the end or the loop as for a whole last line.
                if error.isCutShort {
                    if loops == 0 { return .emit(warning) }
                    continue
                }
                queue.append(ending())
                return .emit(warning)
            }
            if var message {
                let recorded = message.receivedAt
                message.receivedAt = clock.time(recorded)
                if start == nil { start = message.receivedAt }
                let offset = message.receivedAt - start!
                lastRead = offset
                if let from = options.from, offset < from { continue }
                if options.to.map({ offset <= $0 }) ?? true {
                    pending = message
                    pendingLine = reader.map { ($0.lineOffset, $0.lineNumber, $0.file, recorded) }
                    return nil
                }
            }
            guard options.loop, let first = firstDelivered, let last = lastDelivered else {
                return .emit(ending())
            }
            do { reader = try open(nil) } catch {
                return .emit(finish("replay stopped: cannot reopen: \(error)"))
            }
            clock = CaptureClock(tolerance: VenueReplay.stepBackTolerance)
            // A seek back never goes before this pass's start: the last pass's checkpoints are done.
            dropped += marks.map(\.id)
            marks.removeAll()
            nextMark = nil
            markSpacing = Self.checkpointSpacing
            loops += 1
            loopOffset += last - first + 1
            // Where the next pass starts, after the loop's notice: the monitor's log places events
            // from here, as after a capture's seek (`ReplayEngine`).
            queue.append(.notice(.sought(source: name, position: first - (start ?? first), capture: first + loopOffset)))
            pacer?.startPass(shiftedBy: last - first + 1)
            start = nil
            lastRead = nil
            firstDelivered = nil
            lastDelivered = nil
            reached = nil
            catchUp = nil
            return .emit(.notice(.ended(source: name, reason: "looping (\(loops))")))
        }
    }

    // MARK: - Checkpoints

    /// Seconds of recording between checkpoints. A seek back re-reads at most this much (18,000 of
    /// the hour's 300 messages a second: 0.27-0.33 s key to screen, docs/venue.md); a checkpoint a
    /// minute is 60 views an hour, about 150 KB each there.
    static let checkpointSpacing = 60.0
    /// The most checkpoints kept (even, so thinning keeps the newest): past it every other one goes
    /// and the spacing doubles, so a recording of any length holds at most this many views.
    static let checkpointLimit = 120

    /// A checkpoint's place in the recording: the line of the first message after it, its replay
    /// time, its receive time as recorded (to check the line is still that message) and the clock
    /// as it was once that message was read.
    struct Mark {
        var id: Int
        var time: Double
        var recorded: Double
        var clock: CaptureClock
        var topic: String
        var offset: Int
        var line: Int
        var file: FileIdentity
    }

    /// The `.checkpoint` notice to hand out before `message` when one is due (the consumer keeps
    /// them and the message is the pass's first or a spacing past the last), else nil.
    private mutating func checkpoint(before message: BrokerMessage) -> SourceEvent? {
        guard let start, let line = pendingLine else { return nil }
        let offset = message.receivedAt - start
        if let nextMark, offset < nextMark { return nil }
        guard control.acceptsCheckpoints else { return nil }
        lastMarkID += 1
        marks.append(Mark(id: lastMarkID, time: message.receivedAt, recorded: line.recorded, clock: clock,
                          topic: message.topic, offset: line.offset, line: line.line, file: line.file))
        if marks.count > Self.checkpointLimit {
            let kept = marks.indices.filter { $0 % 2 == 0 }.map { marks[$0] }
            dropped += marks.indices.filter { $0 % 2 == 1 }.map { marks[$0].id }
            marks = kept
            markSpacing *= 2
        }
        nextMark = mark(after: offset)
        defer { dropped.removeAll() }
        return .notice(.checkpoint(source: name, id: lastMarkID, dropped: dropped))
    }

    /// The spacing's next multiple after `offset`, counted from the window's start.
    private func mark(after offset: Double) -> Double {
        let base = options.from ?? 0
        return base + ((offset - base) / markSpacing).rounded(.down) * markSpacing + markSpacing
    }

    /// Reopens the recording at the latest checkpoint at or before `target` and makes its message
    /// pending; nil (nothing changed) when there is none or it cannot be trusted: the file is
    /// another (replaced under its name) or its line is no longer the message that was there.
    private mutating func resume(before target: Double) -> ReplayCheckpoint? {
        guard let start, let index = marks.lastIndex(where: { $0.time <= target }) else { return nil }
        let mark = marks[index]
        guard var resumed = try? open((mark.offset, mark.line)), resumed.file == mark.file,
              var message = try? resumed.next(), message.receivedAt == mark.recorded, message.topic == mark.topic else { return nil }
        marks.removeSubrange((index + 1)...)
        reader = resumed
        clock = mark.clock
        message.receivedAt = mark.time
        pending = message
        pendingLine = (resumed.lineOffset, resumed.lineNumber, resumed.file, mark.recorded)
        lastRead = mark.time - start
        nextMark = self.mark(after: mark.time - start)
        return ReplayCheckpoint(id: mark.id, seconds: mark.time - start)
    }
}
