import Captures
import HCI

/// The replay's state machine, stepped by the replay's thread with the wall time: one step either
/// hands out an event, asks to wait (a packet not yet due, or paused), or ends. Pure apart from its
/// reader: it never reads a clock, so pacing, pause, seek and loop are tested without waiting.
struct ReplayEngine {
    typealias Action = ReplayControl.Step

    private struct State {
        var reader: (any ReplayPacketReader)?
        var announced = false
        var stopRequested = false
        var finished = false
        /// At the end with `holdAtEnd`: waiting for a seek back (the reader and checkpoints kept).
        var held = false
        var pending: HCIPacket?
        var pacer: ReplayPacer?
        var captureStart: Double?
        var loopOffset = 0.0
        var firstDelivered: Double?
        var lastDelivered: Double?
        /// The replay's time for each packet read, in file order: the file's own, except that a
        /// step back of its clock (a phone's clock set back while it logged) is a step of zero,
        /// as `replay` and `report` range it. Every time the engine works with is this one: the
        /// pacing, the position shown, `--from`/`--to` and a seek's target, so the position runs
        /// on through a step back and a seek lands where the user counted from (raw, the position
        /// ran back with the file's clock and ← after the step found the earlier pass over those
        /// times: 110 s back, not 10). Restarted with the reader (from the start, a loop) or taken
        /// from the resume point a seek back reopens at.
        var clock = CaptureClock()
        /// Seconds into the capture of the last packet read this pass, delivered or not.
        var lastRead: Double?
        /// The capture time reached while the next packet waits: where a seek landed (paused, or
        /// not yet due), or how far the pacer's clock ran into a silence. The position shows it and
        /// the next press counts from there, so presses add up as on a venue recording.
        var reached: Double?
        var loops = 0
        var paused = false
        /// Seconds into the capture a seek is skipping to, until it gets there.
        var seekTarget: Double?
        /// Resume points kept while reading, one every `checkpointEvery` packets, each with the
        /// latest capture time read before it; in file order.
        var checkpoints: [(point: CaptureResumePoint, before: Double, clock: CaptureClock)] = []
        var readSinceCheckpoint = 0
        /// Packets read and not played: passed over by a seek forward or before `--from`. The
        /// end line names them, or "after N packets" read as the file's size after a seek.
        var skipped = 0
        /// The latest capture time read since the reader started where it now reads from.
        var latestRead = -Double.infinity
        /// What the reader cannot read past, said (`.unreadable`); the next step ends there.
        var unreadable: String?
        /// Where a `--loop` pass starts again (`.sought`), said at the next step, after the loop's notice.
        var passStart: SourceNotice?
    }

    /// Packets between two resume points: a seek back reads at most this many to reach its
    /// target, wherever it is in the file (from the start, it read up to the whole file: 2.6 s
    /// back near the end of a 20,000,000-record capture).
    static let defaultCheckpointEvery = 16_384
    let checkpointEvery: Int

    /// Packets due within this many seconds are handed out together rather than each after a sleep
    /// of its own: 100 beacons at 10 Hz would otherwise cost 1000 timer wake-ups a second (measured:
    /// the monitor's CPU dropped from 9% of a core at one packet per wake-up, and the replay thread's
    /// share by two thirds from 10 to 50 ms). Timestamps are data, so ranging cannot tell, and the
    /// monitor takes what arrived only at its ticks, five times a second.
    static let batchWindow = 0.05

    /// The longest wait asked for: the replay thread also wakes at every control request.
    static let longestWait = 1.0

    let name: String
    let options: ReplayOptions
    let control: ReplayControl
    let makeReader: @Sendable () throws -> any ReplayPacketReader
    private var state = State()

    /// A replay of what `reader` reads; `makeReader` opens the file again for a loop or a seek back.
    init(name: String, options: ReplayOptions, control: ReplayControl, reader: any ReplayPacketReader,
         checkpointEvery: Int = Self.defaultCheckpointEvery, makeReader: @escaping @Sendable () throws -> any ReplayPacketReader) {
        self.checkpointEvery = checkpointEvery
        self.name = name
        self.options = options
        self.control = control
        self.makeReader = makeReader
        state.reader = reader
    }

    /// Ends the replay at the next step (with an `.ended` notice).
    mutating func stop() { state.stopRequested = true }

    private mutating func finish(_ reason: String) -> Action {
        state.finished = true
        state.reader = nil
        return .emit(.notice(.ended(source: name, reason: reason)))
    }

    /// The end of what can be read: finished, or held there for a seek back (`holdAtEnd`), with
    /// the same `.ended` notice either way (the monitor shows `replay finished`).
    private mutating func end(_ reason: String) -> Action {
        guard options.holdAtEnd else { return finish(reason) }
        state.held = true
        state.pending = nil
        state.seekTarget = nil
        // The position stands at the end (a seek forward past it too), and a seek back counts from there.
        if let start = state.captureStart, let last = state.lastRead {
            let end = options.to.map { Swift.min($0, last) } ?? last
            if end > (state.reached ?? state.lastDelivered ?? start) - start {
                state.reached = start + end
                control.moved(to: end)
            }
        }
        return .emit(.notice(.ended(source: name, reason: reason)))
    }

    /// Held at the end: no timer, the thread sleeps until a request. A seek back is put back for
    /// the next step to take as any seek (reopening at a resume point) after the notice that
    /// turns the status back to playing; a seek forward or a step has nothing to go to and is
    /// dropped with one notice saying so. Pause and speed requests wait in the control for the
    /// packets after it.
    private mutating func heldStep() -> Action {
        let delta = control.takeSeek()
        guard let delta, delta < 0 else { return control.forwardAtHeldEnd(asked: delta != nil, source: name) }
        state.held = false
        control.seek(by: delta)
        return .emit(.notice(.resumedFromEnd(source: name)))
    }

    mutating func step(wall: Double) -> Action {
        if state.finished { return .end }
        if state.stopRequested { return finish("stopped") }
        if state.held { return heldStep() }
        if !state.announced {
            state.announced = true
            return .emit(.notice(.connected(source: name)))
        }
        if let notice = state.passStart {
            state.passStart = nil
            return .emit(.notice(notice))
        }
        // A seek counts from the capture's first packet: pressed before it was read (→ as the
        // replay opens, or under load), it waits for it instead of being taken and dropped.
        if state.captureStart != nil, let delta = control.takeSeek(), let action = seek(by: delta, wall: wall) { return action }
        if let action = skipToSeekTarget(wall: wall) { return action }
        if state.pending == nil {
            if let action = readNext() { return action }
        }
        guard let packet = state.pending else { return .wait(0) }
        let time = packet.timestamp
        if state.pacer == nil {
            state.pacer = ReplayPacer(captureStart: time, wallStart: wall, speed: options.speed)
            if state.paused { state.pacer!.pause(atWall: wall, lastCaptureTime: time) }
        }
        if let speed = control.takeSpeed() { state.pacer!.setSpeed(speed, atWall: wall, lastCaptureTime: state.lastDelivered ?? time) }
        if control.isPaused != state.paused {
            state.paused.toggle()
            if state.paused {
                state.pacer!.pause(atWall: wall, lastCaptureTime: state.lastDelivered ?? time)
                reach(state.pacer!.pausedAt, before: time)
            } else {
                state.pacer!.resume(atWall: wall)
            }
        }
        if state.paused {
            guard control.takeStep() else { return .wait(Self.longestWait) }
            state.pacer!.stepped(to: time)
        } else if let delay = state.pacer!.delay(until: time, atWall: wall), delay > Self.batchWindow {
            reach(state.pacer!.captureTime(atWall: wall), before: time)
            return .wait(min(delay, Self.longestWait))
        }
        state.pending = nil
        state.reached = nil
        if state.firstDelivered == nil { state.firstDelivered = time }
        state.lastDelivered = time
        control.delivered(position: time - (state.captureStart ?? time))
        var delivered = packet
        delivered.timestamp = time + state.loopOffset
        return .emit(.packet(delivered))
    }

    /// Time runs on between packets: while the next one is not yet due (a silence in the
    /// recording) the position follows the pacer's clock, at most up to that packet, so the
    /// status line's clock keeps moving (it stopped at the last packet: ten seconds of silence
    /// looked like a hung replay) and a seek counts from the time shown. Waking at least every
    /// `longestWait` moves it on at least once a second.
    private mutating func reach(_ capture: Double?, before packetTime: Double) {
        guard let capture, capture.isFinite, let start = state.captureStart else { return }
        let reached = Swift.min(capture, packetTime)
        guard reached > (state.reached ?? state.lastDelivered ?? start) else { return }
        state.reached = reached
        control.moved(to: reached - start)
    }

    /// Moves to `delta` seconds from the time reached (the monitor's left/right keys):
    /// forward by skipping packets, back by reopening the file and skipping to the target. After a
    /// seek back the loop offset grows by the distance jumped, so delivered timestamps never run
    /// backwards. The pacer restarts at the target. Returns an action when the file ended (or
    /// looped) while skipping.
    private mutating func seek(by delta: Double, wall: Double) -> Action? {
        guard let start = state.captureStart else { return nil }
        let here = state.reached ?? state.lastDelivered ?? start
        // Not before `--from`, as a venue recording's seek: the packets there are never played, so
        // a seek back past it showed the clock running through a silence it had made.
        let target = Swift.max(options.from ?? 0, here - start + delta)
        if delta < 0 {
            do { state.reader = try reopen(before: start + target) } catch {
                return finish("replay stopped: cannot reopen to seek: \(error)")
            }
            state.pending = nil
            state.loopOffset += here - (start + target)
        }
        state.seekTarget = target
        return skipToSeekTarget(wall: wall)
    }

    /// Skips packets up to the pending seek's target. A bad record on the way is reported and the
    /// skipping goes on at the next step: it ended the seek there, so the packets between the bad
    /// record and the target were played, a seek back's shift added to their times (ranging time
    /// ran back by up to the distance skipped: 59 s on ll-phdr-no-rssi.pcapng).
    private mutating func skipToSeekTarget(wall: Double) -> Action? {
        guard let target = state.seekTarget else { return nil }
        while true {
            if state.pending == nil, let action = readNext() {
                if case .emit(.notice(.framingError)) = action {} else { state.seekTarget = nil }
                return action
            }
            guard let packet = state.pending, let start = state.captureStart else {
                state.seekTarget = nil
                return nil
            }
            if packet.timestamp - start >= target {
                state.seekTarget = nil
                // Paced from the target, not from the packet: a seek into a silence shows the time
                // asked for and plays the silence's rest at the replay's pace, as a media player
                // and a venue recording's seek do. Paced from the packet, ← from the end of
                // govee-h5100.btsnoop showed 06:29, not the 06:25 asked for, and the delivered
                // time jumped the 4 s of silence ahead of the monitor's running clock.
                state.pacer?.restart(captureStart: start + target, atWall: wall)
                state.reached = start + target
                control.moved(to: target)
                // The monitor's log places events by capture time; after a seek back that time
                // is shifted (`loopOffset`), so it is told where the position now stands.
                return .emit(.notice(.sought(source: name, position: target, capture: start + target + state.loopOffset)))
            }
            state.pending = nil
            state.skipped += 1
        }
    }

    /// The file opened again at the last resume point whose packets before it all came earlier
    /// than `time`, so reading on finds the same first packet at or after `time` as reading from
    /// the start does (even with timestamps out of order); from the start when there is none.
    private mutating func reopen(before time: Double) throws -> any ReplayPacketReader {
        state.readSinceCheckpoint = 0
        if let checkpoint = state.checkpoints.last(where: { $0.before < time }),
           let resumed = try? (state.reader ?? makeReader()).resumed(at: checkpoint.point) {
            state.latestRead = checkpoint.before
            state.clock = checkpoint.clock
            return resumed
        }
        state.latestRead = -.infinity
        state.clock = CaptureClock()
        return try makeReader()
    }

    private mutating func keepCheckpoint() {
        state.readSinceCheckpoint = 0
        guard let point = state.reader?.resumePoint, point.offset > (state.checkpoints.last?.point.offset ?? -1) else { return }
        state.checkpoints.append((point, state.latestRead, state.clock))
    }

    /// Reads until a packet inside the window is pending; returns an action for anything else
    /// (a skipped bad record, a loop, the end).
    private mutating func readNext() -> Action? {
        if let detail = state.unreadable {
            state.unreadable = nil
            return end("replay stopped: \(detail)")
        }
        while true {
            let packet: HCIPacket?
            do {
                packet = try state.reader?.nextPacket()
            } catch {
                let replayError = error as? any RecoverableReplayError
                if let replayError, replayError.isRecoverable {
                    return .emit(.notice(.framingError(source: name, detail: replayError.detail)))
                }
                let detail = replayError?.detail ?? "\(error)"
                state.unreadable = detail
                return .emit(.notice(.unreadable(source: name, detail: detail)))
            }
            var reachedEnd = packet == nil
            if var packet {
                // A step back of the file's clock is a step of zero from here on (`clock`): paced
                // on from this packet, as tcpreplay 3 did (against the earlier anchor every packet
                // after the jump went out at once until their times passed where it started), and
                // ranged on from where it was. Smaller steps back (interleaved interfaces) are left
                // as they are and play within the batch window.
                packet.timestamp = state.clock.time(packet.timestamp)
                state.latestRead = Swift.max(state.latestRead, packet.timestamp)
                state.readSinceCheckpoint += 1
                if state.readSinceCheckpoint >= checkpointEvery { keepCheckpoint() }
                if state.captureStart == nil { state.captureStart = packet.timestamp }
                let offset = packet.timestamp - state.captureStart!
                state.lastRead = offset
                if let from = options.from, offset < from {
                    state.skipped += 1
                    continue
                }
                if let to = options.to, offset > to { reachedEnd = true }
                if !reachedEnd {
                    state.pending = packet
                    return nil
                }
            }
            let note = state.reader?.endNote.map { ": \($0)" } ?? ""
            guard options.loop, let first = state.firstDelivered, let last = state.lastDelivered else {
                if control.position.packets == 0, let from = options.from, let last = state.lastRead, last < from {
                    state.finished = true
                    state.reader = nil
                    return .emit(.notice(.pastTheEnd(source: name, from: from, last: last)))
                }
                let skipped = state.skipped > 0 ? " played (\(state.skipped) skipped by seeks or --from)" : ""
                return end("end of replay after \(control.position.packets) packets\(skipped)\(note)")
            }
            do { state.reader = try makeReader() } catch {
                return finish("replay stopped: cannot reopen: \(error)")
            }
            state.loops += 1
            state.latestRead = -.infinity
            state.clock = CaptureClock()
            state.readSinceCheckpoint = 0
            state.loopOffset += last - first + 1
            // The next pass plays from where this one started, its times shifted on by the
            // pass (`loopOffset`): the monitor's log is told, as after a seek, or until its next
            // tick it placed an event by the last pass's anchor (at the end, not the start).
            state.passStart = .sought(source: name, position: first - (state.captureStart ?? first), capture: first + state.loopOffset)
            state.pacer?.startPass(shiftedBy: last - first + 1)
            state.captureStart = nil
            state.lastRead = nil
            state.firstDelivered = nil
            return .emit(.notice(.ended(source: name, reason: "looping (\(state.loops))\(note)")))
        }
    }
}
