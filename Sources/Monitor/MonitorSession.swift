import BeaconFormats
import Foundation
import PacketSources
import Ranging
import Survey
import Venue

/// The monitor's data side, owned by the one loop that also owns the terminal and the app state
/// (htop, btmon): it takes the source's batches from the inbox, feeds them to `MonitorFeed`
/// (decoding, ranging, the detail pane's extras), makes a snapshot at each tick and carries out
/// the loop's commands (replay controls, recording, ranging filter, calibration). No locks: only
/// the loop touches it. The wall time comes in as an argument, so a test drives it without a
/// clock, a thread or a terminal.
public struct MonitorSession: Sendable {
    public static let snapshotsPerSecond = 3.0
    /// Replay speeds `+` and `-` step through (`--speed max` stays at max).
    public static let speedSteps: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 100]

    public let inbox: SourceInbox
    public private(set) var feed: MonitorFeed
    public let recording: RecordingSource?
    public let replay: ReplayControl?
    public let catalogPath: String?
    private var speed: ReplaySpeed?
    /// The newest packet's capture time, the wall time its batch arrived and the rate since: between
    /// packets the capture clock runs on at the replay speed (stopped while paused), so ages keep
    /// moving. A pause, a resume or a speed change re-anchors it where it is (at the next snapshot),
    /// so a minute's pause is not a minute's jump on resume.
    private var clock: (capture: Double, wall: Double, rate: Double)?
    private var lost = false
    /// The source finished and everything it delivered has been fed.
    public private(set) var sourceEnded = false
    /// The session export (`--export`, `x`): every tick's readings as CSV rows, one write a tick.
    private var export: LineFileAppender?
    private var exportRows = CSVRows(capacity: 1 << 16)
    private var lastExported: Double?
    /// Publishes what a venue view decided (visit events, occupancy) through its broker.
    public var publish: (@Sendable (VenueOutgoing) -> Void)?
    /// A key's notice for the status line, shown from the next snapshot for `noticeSeconds`.
    private var pendingNotice: String?
    private var noticeUntil = -Double.infinity
    static let noticeSeconds = 4.0

    public init(
        feed: MonitorFeed, inbox: SourceInbox, recording: RecordingSource? = nil, replay: ReplayControl? = nil,
        speed: ReplaySpeed? = nil, catalogPath: String? = nil
    ) {
        self.feed = feed
        self.inbox = inbox
        self.recording = recording
        self.replay = replay
        self.speed = speed
        self.catalogPath = catalogPath
        // A venue view keeps checkpoints, so a seek back on its recording need not re-read it all.
        if feed.venue != nil { replay?.acceptCheckpoints() }
    }

    /// The first snapshot, for the loop's first frame.
    public mutating func initialSnapshot() -> MonitorSnapshot { feed.snapshot(at: .nan) }

    /// Feeds everything the source delivered since the last call.
    public mutating func drain() {
        let contents = inbox.take()
        let wasFinished = feed.status.state == .finished
        for batch in contents.batches {
            var newest: Double?
            for event in batch.events {
                switch event {
                case .packet(let packet):
                    feed.feed(packet)
                    if packet.timestamp.isFinite { newest = max(newest ?? packet.timestamp, packet.timestamp) }
                case .sighting(let sighting, let scanner):
                    feed.feed(sighting, scanner: scanner)
                    if sighting.timestamp.isFinite { newest = max(newest ?? sighting.timestamp, sighting.timestamp) }
                case .brokerMessage(let message):
                    feed.feed(message)
                    if message.receivedAt.isFinite { newest = max(newest ?? message.receivedAt, message.receivedAt) }
                case .notice(let notice):
                    if case .rewound(_, let target, _) = notice {
                        // A seek back on a venue recording: the feed rebuilds its view from what
                        // follows, and the capture clock, which otherwise never goes back, is set
                        // to the target (the rebuild's last message may be well before it).
                        clock = (target, batch.arrival, clockRate)
                        newest = nil
                    }
                    note(notice)
                }
            }
            if let newest { clock = (max(clock?.capture ?? newest, newest), batch.arrival, clockRate) }
        }
        feed.droppedPackets = contents.droppedPackets
        if contents.ended { sourceEnded = true }
        if contents.ended || (!wasFinished && feed.status.state == .finished) {
            // A venue recording replayed to its end (held there for a seek back, or over): its
            // open visits end there, as `replay` ends them; a seek back rebuilds the view.
            if let last = clock?.capture { _ = feed.finishVenue(at: last) }
        }
        flushVenueOutbox()
    }

    /// The monitor is ending (q, a signal, a stop request): takes what arrived, ticks at the
    /// time the source has reached and closes every open visit, handing the exit and visit events
    /// and the rooms' occupancy to `publish` (the broker's client sends them before it
    /// disconnects). Returns how many visits it closed; nil when this is no venue.
    public mutating func finishVenue(now: Double) -> Int? {
        guard feed.venue != nil else { return nil }
        drain()
        reanchorClock(now: now)
        let closed = feed.finishVenue(at: captureTime(now: now))
        flushVenueOutbox()
        return closed
    }

    private mutating func flushVenueOutbox() {
        guard feed.venue != nil else { return }
        let outgoing = feed.takeVenueOutbox()
        if let publish { for message in outgoing { publish(message) } }
    }

    /// A connection's first `connected` says nothing the status line does not; one after a loss does.
    private mutating func note(_ notice: SourceNotice) {
        if case .connected = notice, !lost { return }
        if case .lost = notice { lost = true }
        if case .connected = notice { lost = false }
        feed.note(notice)
    }

    /// Ticks the ranging at the capture time the source has reached by `now` (wall seconds) and
    /// builds the snapshot the loop draws.
    public mutating func snapshot(now: Double) -> MonitorSnapshot {
        let paused = replay?.isPaused ?? false
        reanchorClock(now: now)
        let time = captureTime(now: now)
        if let replay {
            let position = replay.position.seconds
            feed.status.replayPosition = position
            // A file appended to while it plays runs past the length measured at the start.
            feed.status.replayDuration = replay.length.map { Swift.max($0, position) }
            if !feed.status.state.isOver {
                var factor = Double.infinity
                if case .factor(let chosen)? = speed { factor = chosen }
                feed.status.state = paused ? .paused(speed: factor) : .replaying(speed: factor)
            }
        }
        if let text = pendingNotice {
            feed.status.notice = text
            noticeUntil = now + Self.noticeSeconds
            pendingNotice = nil
        } else if now >= noticeUntil {
            feed.status.notice = nil
        }
        let snapshot = feed.snapshot(at: time)
        exportTick()
        flushVenueOutbox()
        return snapshot
    }

    /// The capture time the source has reached by `now` (wall seconds): the newest packet's, run
    /// on at the replay speed since it arrived (stopped while paused); NaN before the first.
    private func captureTime(now: Double) -> Double {
        clock.map { $0.capture + (now - $0.wall) * $0.rate } ?? .nan
    }

    /// Capture seconds per wall second now: the replay's speed, 0 while paused, held at its end
    /// (the position stays at the length: ran on, the beacons went stale and left the table a
    /// minute after the end) or at max (the packets alone move time), 1 for a live source.
    private var clockRate: Double {
        switch speed {
        case .factor(let factor): replay?.isPaused ?? false || (replay != nil && feed.status.state.isOver) ? 0 : factor
        case .max: 0
        case nil: 1
        }
    }

    private mutating func reanchorClock(now: Double) {
        guard let clock, clock.rate != clockRate else { return }
        self.clock = (captureTime(now: now), now, clockRate)
    }

    // MARK: - Export

    /// Starts the CSV export to `path`, header first: replaced if it exists when the user named it
    /// (`--export`), created new or refused (`.create`) when `x` named it.
    public mutating func startExport(to path: String, mode: LineFileAppender.Mode = .replace) throws(SurveyFileError) {
        let file = try LineFileAppender.starting(path: path, mode: mode, header: SessionExport.header)
        export = file
        lastExported = nil
        feed.status.exportFile = path
        feed.log(.info, "exporting every reading to \(path)")
    }

    /// Closes the export; the rows written so far stay.
    public mutating func stopExport() {
        guard let export else { return }
        self.export = nil
        feed.status.exportFile = nil
        feed.log(.info, "export to \(export.path) closed")
    }

    /// Writes the last tick's rows, once per tick time (a paused replay ticks at one time).
    private mutating func exportTick() {
        guard let export, let ranging = feed.lastRanging, ranging.time != lastExported else { return }
        lastExported = ranging.time
        exportRows.removeAll()
        SessionExport.append(ranging, to: &exportRows)
        guard !ranging.beacons.isEmpty else { return }
        do {
            try export.write(exportRows.string)
        } catch {
            self.export = nil
            feed.status.exportFile = nil
            feed.log(.warning, "export stopped: \(export.path): \(error.reason)")
        }
    }

    // MARK: - The loop's commands

    /// Carries out one command; its effect shows in the next `drain()` and `snapshot(now:)`.
    public mutating func handle(_ command: MonitorCommand) {
        switch command {
        case .togglePause:
            guard let replay else { return noReplayControls("pause") }
            replay.togglePause()
        case .step:
            guard let replay else { return noReplayControls("step") }
            if feed.status.state == .finished { return nothingFurther("step") }
            replay.pause()
            replay.step()
        case .speedUp, .slowDown:
            guard let replay else { return noReplayControls("speed") }
            changeSpeed(up: command == .speedUp, replay)
        case .seek(let seconds):
            guard let replay else { return noReplayControls("seek") }
            if seconds > 0, feed.status.state == .finished { return nothingFurther("seek") }
            if seconds < 0, feed.venue != nil, recording?.recordingPath != nil {
                // A seek back replays the venue recording again from its start: recorded, those
                // messages would be written twice, out of time order.
                let text = "seek back: not while recording (r stops it)"
                note(text)
                pendingNotice = text
                return
            }
            replay.seek(by: seconds)
        case .toggleRecording:
            toggleRecording()
        case .toggleExport:
            if export != nil { return stopExport() }
            // Never over a file: `x`, `x`, `x` within a second named the first export again and
            // truncated it (`.replace`), as did another session's export of that second.
            let path = Self.exportName(at: Date()) { FileManager.default.fileExists(atPath: $0) }
            do { try startExport(to: path, mode: .create) } catch { refused("cannot export to \(path): \(error.reason)") }
        case .selectFilter(let name):
            do { try feed.selectFilter(named: name) } catch { note("\(error)") }
        case .startCalibration(let identity):
            feed.startCalibration(of: identity)
        case .cancelCalibration:
            feed.cancelCalibration()
        case .saveCalibration(let identity, let power):
            saveCalibration(identity, power: power)
        }
    }

    private mutating func note(_ message: String) {
        feed.log(.info, message)
    }

    /// `→` or `.` on a replay held at its end: nothing comes after it (the replay waits for `←`).
    private mutating func nothingFurther(_ key: String) {
        let text = "\(key): the replay is at its end, nothing further (← goes back)"
        note(text)
        pendingNotice = text
    }

    /// A replay key on a source without replay controls: said in the event log and, for a few
    /// seconds, on the status line, where the key's user is looking.
    private mutating func noReplayControls(_ what: String) {
        let text = "\(what) works on replays (a file)"
        note(text)
        pendingNotice = text
    }

    private mutating func changeSpeed(up: Bool, _ replay: ReplayControl) {
        // Said where the user looks, as at either end of the steps: in the log alone the press
        // had no answer on screen.
        guard case .factor(let factor) = speed else {
            let text = "speed: the replay runs at max (--speed max)"
            note(text)
            pendingNotice = text
            return
        }
        let steps = Self.speedSteps
        let index = steps.lastIndex(where: { $0 <= factor }) ?? 0
        let target = up ? steps[min(index + 1, steps.count - 1)] : steps[max(index - (steps[index] == factor ? 1 : 0), 0)]
        // At either end a press changes nothing: say so where the user looks (each press at 100x
        // logged `speed 100x` again, and the status line showed no answer).
        guard target != factor else {
            let text = "speed: already \(up ? "the fastest" : "the slowest"), \(ReplaySpeed.factor(factor))"
            note(text)
            pendingNotice = text
            return
        }
        speed = .factor(target)
        replay.setSpeed(.factor(target))
        let text = "speed \(ReplaySpeed.factor(target))"
        // Paused, the status line's `paused · 2x` answers the press, as `replaying at 2x` does.
        note(text)
    }

    private mutating func toggleRecording() {
        guard let recording else { return refused("this source cannot be recorded") }
        if recording.stopRecording() != nil { return }
        let path = Self.recordingName(at: Date(), venue: feed.venue != nil) { FileManager.default.fileExists(atPath: $0) }
        do { try recording.startRecording(to: path) } catch { refused("cannot record: \(error)") }
    }

    /// `r` or `x` that cannot start (a directory it cannot write in): a warning in the event log
    /// and, for a few seconds, on the status line. In the log alone (`r`'s as news) the key
    /// seemed to do nothing: no `● REC` and no reason where the user looks.
    private mutating func refused(_ text: String) {
        feed.log(.warning, text)
        pendingNotice = text
    }

    /// `beacontop-20261122-041512.btsnoop` in the current directory (a venue's: `.venue.ndjson`);
    /// when `exists` says a file has that name (a second `r` within the second, another session's
    /// recording), `beacontop-20261122-041512-2.btsnoop`, `-3`, ...: a recording never writes over
    /// a file (the writer's O_EXCL refuses one created in between).
    public static func recordingName(at date: Date, venue: Bool = false, exists: (String) -> Bool = { _ in false }) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "beacontop-\(formatter.string(from: date))"
        let suffix = venue ? ".venue.ndjson" : ".btsnoop"
        var name = base + suffix
        var number = 1
        while exists(name) {
            number += 1
            name = "\(base)-\(number)\(suffix)"
        }
        return name
    }

    /// `beacontop-20261122-041512.csv` in the current directory; past a name `exists` says is
    /// taken, `beacontop-20261122-041512-2.csv`, `-3`, ..., as `recordingName` steps.
    public static func exportName(at date: Date, exists: (String) -> Bool = { _ in false }) -> String {
        func csv(_ name: String) -> String { String(name.dropLast(".btsnoop".count)) + ".csv" }
        return csv(recordingName(at: date) { exists(csv($0)) })
    }

    private mutating func saveCalibration(_ identity: BeaconIdentity, power: Int) {
        let name = feed.calibration?.name ?? identity.description
        let path = catalogPath ?? CatalogCalibrationEditor.defaultPath
        do {
            try CatalogCalibrationFile.save(power: power, id: identity.description, name: name, path: path, creating: catalogPath == nil)
            if catalogPath != nil {
                feed.replaceCatalog(try ExhibitCatalog(path: path))
            } else {
                note("no --exhibits catalog was given: the calibration went to \(path) (pass it with --exhibits)")
            }
            feed.calibrationSaved(to: path, measuredPower: power)
        } catch {
            feed.calibrationNotSaved(to: path, reason: CatalogCalibrationFile.describe(error))
        }
    }
}
