import BeaconFormats
import Captures
import HCI
import Foundation
import Monitor
import Ranging
import PacketSources
import Synchronization
import TerminalUI

/// The wiring between a source and the monitor loop (issue 5): the source's events are fed into a
/// `MonitorFeed` on the source's side, a ticker thread turns the feed into snapshots five times a
/// second and posts them to the loop's inbox, and the loop's commands come back here (replay
/// controls, recording, filter, calibration). The feed sits behind one lock; the loop thread only
/// ever sees `Sendable` snapshots.
final class MonitorSession: Sendable {
    static let snapshotsPerSecond = 5.0
    /// Replay speeds `+` and `-` step through (`--speed max` stays at max).
    static let speedSteps: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 100]

    let inbox = MonitorInbox()
    let source: any PacketSource
    let replay: ReplayControl?
    let catalogPath: String?
    private let feed: Mutex<MonitorFeed>
    private let recorder = Mutex<BTSnoopWriter?>(nil)
    private let speed: Mutex<ReplaySpeed?>
    /// The newest packet's capture time and the wall time it arrived: between packets the capture
    /// clock runs on at the replay speed (stopped while paused), so ages and staleness keep moving.
    private let clock = Mutex<(capture: Double, wall: Double)?>(nil)
    private let running = Atomic<Bool>(true)
    private let consumer = Mutex<Task<Void, Never>?>(nil)
    private let tickerStarted = Atomic<Bool>(false)
    private let tickerDone = DispatchSemaphore(value: 0)

    init(feed: MonitorFeed, source: any PacketSource, replay: ReplayControl?, speed: ReplaySpeed?, catalogPath: String?) {
        self.feed = Mutex(feed)
        self.source = source
        self.replay = replay
        self.speed = Mutex(speed)
        self.catalogPath = catalogPath
    }

    /// The first snapshot, for the loop's first frame.
    var initialSnapshot: MonitorSnapshot { feed.withLock { $0.snapshot(at: .nan) } }

    /// Starts recording to `path` (`--record`, or `r`).
    func startRecording(to path: String) throws(CaptureError) {
        let writer = try BTSnoopWriter(path: path)
        recorder.withLock { $0 = writer }
        feed.withLock {
            $0.status.recordingFile = path
            $0.log(.info, "recording to \(path)")
        }
    }

    /// Consumes the source's events (the source must be started) and starts the ticker.
    func run(onConnected: (@Sendable () async -> Void)? = nil) {
        let task = Task { [self] in
            var lost = false
            for await event in source.events {
                switch event {
                case .packet(let packet):
                    record(packet)
                    feed.withLock { $0.feed(packet) }
                    if packet.timestamp.isFinite {
                        let now = Date().timeIntervalSince1970
                        clock.withLock { $0 = (max($0?.capture ?? packet.timestamp, packet.timestamp), now) }
                    }
                case .notice(let news):
                    if case .connected = news, !lost { continue }
                    feed.withLock { $0.note(news) }
                    if case .lost = news { lost = true }
                    if case .connected = news, lost {
                        lost = false
                        await onConnected?()
                    }
                }
            }
        }
        consumer.withLock { $0 = task }
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                inbox.post(makeSnapshot())
                Thread.sleep(forTimeInterval: 1 / Self.snapshotsPerSecond)
            }
            tickerDone.signal()
        }
        thread.name = "beacontop-ticker"
        tickerStarted.store(true, ordering: .relaxed)
        thread.start()
    }

    /// Stops the ticker and the source and waits for the consumer to drain.
    func stop() async {
        running.store(false, ordering: .relaxed)
        if tickerStarted.load(ordering: .relaxed) { tickerDone.wait() }
        source.stop()
        await consumer.withLock { $0 }?.value
    }

    func makeSnapshot() -> MonitorSnapshot {
        let now = Date().timeIntervalSince1970
        let rate: Double
        let paused = replay?.isPaused ?? false
        switch speed.withLock({ $0 }) {
        case .factor(let factor): rate = paused ? 0 : factor
        case .max: rate = 0
        case nil: rate = 1
        }
        let time = clock.withLock { anchor in anchor.map { $0.capture + (now - $0.wall) * rate } } ?? .nan
        return feed.withLock { feed in
            if let replay {
                feed.status.replayPosition = replay.position.seconds
                if feed.status.state != .finished {
                    if paused { feed.status.state = .paused } else if case .factor(let factor)? = speed.withLock({ $0 }) {
                        feed.status.state = .replaying(speed: factor)
                    } else {
                        feed.status.state = .replaying(speed: .infinity)
                    }
                }
            }
            return feed.snapshot(at: time)
        }
    }

    private func record(_ packet: HCIPacket) {
        let failure: String? = recorder.withLock { writer in
            guard writer != nil else { return nil }
            do throws(CaptureError) {
                try writer!.write(packet)
                return nil
            } catch {
                writer = nil
                return "\(error)"
            }
        }
        if let failure {
            feed.withLock {
                $0.status.recordingFile = nil
                $0.log(.warning, "recording stopped: \(failure)")
            }
        }
    }

    // MARK: - The loop's commands (called on the loop thread: each is short)

    func handle(_ command: MonitorCommand) {
        switch command {
        case .togglePause:
            guard let replay else { return note("pause works on replays (a capture file)") }
            replay.togglePause()
        case .step:
            guard let replay else { return note("step works on replays (a capture file)") }
            replay.pause()
            replay.step()
        case .speedUp, .slowDown:
            guard let replay else { return note("speed works on replays (a capture file)") }
            changeSpeed(up: command == .speedUp, replay)
        case .seek(let seconds):
            guard let replay else { return note("seek works on replays (a capture file)") }
            replay.seek(by: seconds)
        case .toggleRecording:
            toggleRecording()
        case .selectFilter(let name):
            let failure: String? = feed.withLock { feed in
                do { try feed.selectFilter(named: name) } catch { return "\(error)" }
                return nil
            }
            if let failure { note(failure) }
        case .startCalibration(let identity):
            feed.withLock { $0.startCalibration(of: identity) }
        case .cancelCalibration:
            feed.withLock { $0.cancelCalibration() }
        case .saveCalibration(let identity, let power):
            saveCalibration(identity, power: power)
        }
        inbox.post(makeSnapshot())
    }

    private func note(_ message: String) {
        feed.withLock { $0.log(.info, message) }
    }

    private func changeSpeed(up: Bool, _ replay: ReplayControl) {
        let next: Double? = speed.withLock { speed in
            guard case .factor(let factor) = speed else { return nil }
            let steps = Self.speedSteps
            let index = steps.lastIndex(where: { $0 <= factor }) ?? 0
            let target = up ? steps[min(index + 1, steps.count - 1)] : steps[max(index - (steps[index] == factor ? 1 : 0), 0)]
            speed = .factor(target)
            return target
        }
        guard let next else { return note("speed: the replay runs at max") }
        replay.setSpeed(.factor(next))
        note("speed \(ReplaySpeed.factor(next))")
    }

    private func toggleRecording() {
        let stopped: BTSnoopWriter? = recorder.withLock { writer in
            defer { writer = nil }
            return writer
        }
        if let stopped {
            feed.withLock {
                $0.status.recordingFile = nil
                $0.log(.info, "recording stopped: \(stopped.path), \(stopped.packetsWritten) packets")
            }
            return
        }
        let path = Self.recordingName(at: Date())
        do throws(CaptureError) { try startRecording(to: path) } catch { note("cannot record: \(error)") }
    }

    /// `beacontop-20261122-041512.btsnoop` in the current directory.
    static func recordingName(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "beacontop-\(formatter.string(from: date)).btsnoop"
    }

    private func saveCalibration(_ identity: BeaconIdentity, power: Int) {
        let (name, _) = feed.withLock { ($0.calibration?.name ?? identity.description, 0) }
        let path = catalogPath ?? CatalogCalibrationEditor.defaultPath
        do {
            try CatalogCalibrationFile.save(power: power, id: identity.description, name: name, path: path)
            if catalogPath != nil {
                let catalog = try ExhibitCatalog(contentsOf: URL(fileURLWithPath: path))
                feed.withLock { $0.replaceCatalog(catalog) }
            } else {
                note("no --exhibits catalog was given: the calibration went to \(path) (pass it with --exhibits)")
            }
            feed.withLock { $0.calibrationSaved(to: path, measuredPower: power) }
        } catch {
            feed.withLock { $0.log(.warning, "calibration not saved to \(path): \(error)") }
        }
    }
}
