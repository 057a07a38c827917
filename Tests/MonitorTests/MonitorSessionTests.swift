import BeaconFormats
import Foundation
import HCI
import Monitor
import PacketSources
import Synchronization
import TestFixtures
import Testing

/// The monitor's data side as its loop drives it: batches in through the inbox, commands, and a
/// snapshot at each tick, with the wall time given, so no thread, clock or terminal is involved.
@Suite struct MonitorSessionTests {
    final class Wall: Sendable {
        let time = Mutex(5000.0)
        func now() -> Double { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    /// Keeps what is recorded in memory: the toggle writes no file into the working directory.
    final class Recorded: Sendable {
        let paths = Mutex<[String]>([])
        let packets = Mutex(0)
    }

    struct MemoryRecorder: PacketRecorder {
        let recorded: Recorded
        mutating func write(_ packet: HCIPacket) throws { recorded.packets.withLock { $0 += 1 } }
    }

    /// A source the test feeds by hand through the sink it was started with.
    final class HandSource: PacketSource {
        let name = "hand"
        let sink = Mutex<(any SourceSink)?>(nil)
        func start(into sink: any SourceSink) { self.sink.withLock { $0 = sink } }
        func stop() {}
        func send(_ events: [SourceEvent]) { sink.withLock { $0 }?.deliver(events, .dropWhenFull) }
    }

    static func packet(minor: UInt16, rssi: Int8, at time: Double) -> HCIPacket {
        MonitorFeedBoundTests.packet(beacon: Int(minor), rssi: rssi, at: time)
    }

    /// Beacon 1 at 10 Hz for two seconds of capture time from 100 s, each packet arriving 0.1 s of
    /// wall time after the one before.
    static func deliverTwoSeconds(into inbox: SourceInbox, wall: Wall) {
        for step in 0..<20 {
            inbox.deliver([.packet(packet(minor: 1, rssi: -62, at: 100 + Double(step) / 10))], .dropWhenFull)
            wall.advance(0.1)
        }
    }

    /// A replay at 1x whose first two seconds have been fed.
    static func replayAfterTwoSeconds() -> (session: MonitorSession, wall: Wall, inbox: SourceInbox, control: ReplayControl) {
        let wall = Wall()
        let inbox = SourceInbox(now: wall.now)
        let control = ReplayControl()
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: inbox, replay: control, speed: .factor(1))
        deliverTwoSeconds(into: inbox, wall: wall)
        session.drain()
        return (session, wall, inbox, control)
    }

    @Test func batchesAreRangedAndTheCaptureClockRunsOnFromTheirArrival() throws {
        let wall = Wall()
        let inbox = SourceInbox(now: wall.now)
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: inbox)
        #expect(session.initialSnapshot().rows.isEmpty)
        Self.deliverTwoSeconds(into: inbox, wall: wall)
        session.drain()
        // The newest packet (capture 101.9) arrived at wall 5001.9; two seconds later the capture
        // clock has run on to 103.9 and the beacon was last seen two seconds ago.
        wall.advance(1.9)
        let snapshot = session.snapshot(now: wall.now())
        let row = try #require(snapshot.rows.first)
        #expect(abs(row.secondsSinceSeen - 2) < 0.05)
        // Twenty packets since it was first heard 3.9 s ago.
        #expect(abs((row.packetsPerSecond ?? 0) - 20 / 3.9) < 0.1)
    }

    /// A pause stops the capture clock where it is and a resume starts it from there: a minute
    /// paused is not a minute's jump at resume (every beacon a minute stale until packets caught up).
    @Test func aPauseIsNoJumpInCaptureTimeAtResume() throws {
        var (session, wall, _, control) = Self.replayAfterTwoSeconds()
        control.pause()
        _ = session.snapshot(now: wall.now())
        wall.advance(60)
        let paused = try #require(session.snapshot(now: wall.now()).rows.first)
        #expect(abs(paused.secondsSinceSeen - 0.1) < 0.05)
        control.resume()
        _ = session.snapshot(now: wall.now())
        wall.advance(0.5)
        let resumed = try #require(session.snapshot(now: wall.now()).rows.first)
        #expect(abs(resumed.secondsSinceSeen - 0.6) < 0.05, "\(resumed.secondsSinceSeen)")
        // Twice the speed from here: a second of wall time is two of capture time.
        session.handle(.speedUp)
        _ = session.snapshot(now: wall.now())
        wall.advance(1)
        let faster = try #require(session.snapshot(now: wall.now()).rows.first)
        #expect(abs(faster.secondsSinceSeen - 2.6) < 0.05, "\(faster.secondsSinceSeen)")
    }

    /// Issue 11's shape: a remote scanner's sightings come down the same inbox and are ranged with
    /// the packets; the inbox's dropped count reaches the status line.
    @Test func remoteSightingsAreRangedAndDropsAreShown() throws {
        let inbox = SourceInbox(capacity: 4)
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "venue")), inbox: inbox)
        let frame = BeaconFrame.iBeacon(IBeaconFrame(uuid: MonitorFeedBoundTests.uuid, major: 7, minor: 9, measuredPower: -59))
        let sighting = BeaconSighting(timestamp: 200, address: BDAddress(rawValue: 0xB1), addressType: .publicDevice,
                                      eventKind: .advNonconnInd, rssi: -70, frame: frame)
        inbox.deliver([.sighting(sighting, scanner: "room-2")] + (0..<6).map { .packet(Self.packet(minor: 1, rssi: -60, at: 200 + Double($0) / 10)) }, .dropWhenFull)
        session.drain()
        let snapshot = session.snapshot(now: SourceInbox.wallClock())
        #expect(snapshot.rows.map(\.identity).contains(.iBeacon(uuid: MonitorFeedBoundTests.uuid, major: 7, minor: 9)))
        #expect(snapshot.source.droppedPackets == 3)
    }

    /// `r` starts and stops recording through the one recorder, the source wrapper; the status line
    /// and the event log follow its notices.
    @Test func recordingTogglesThroughTheWrappedSource() throws {
        let recorded = Recorded()
        let hand = HandSource()
        let recording = RecordingSource(hand) { path in
            recorded.paths.withLock { $0.append(path) }
            return MemoryRecorder(recorded: recorded)
        }
        let inbox = SourceInbox()
        try recording.start(into: inbox)
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: inbox, recording: recording)
        session.handle(.toggleRecording)
        session.drain()
        let path = try #require(recorded.paths.withLock { $0.first })
        #expect(path.hasPrefix("beacontop-") && path.hasSuffix(".btsnoop"))
        #expect(session.snapshot(now: 0).source.recordingFile == path)
        hand.send([.packet(Self.packet(minor: 1, rssi: -60, at: 10)), .packet(Self.packet(minor: 1, rssi: -60, at: 10.1))])
        session.handle(.toggleRecording)
        session.drain()
        let snapshot = session.snapshot(now: 0)
        #expect(snapshot.source.recordingFile == nil)
        #expect(recorded.packets.withLock { $0 } == 2)
        // The beacon is nearest at once (nobody waits for a distance floor), so its event may follow.
        let recordingEvents = snapshot.events.map(\.message).filter { $0.hasPrefix("recording") }
        #expect(recordingEvents == ["recording to \(path)", "recording stopped: \(path), 2 packets"])
    }

    /// `r`'s file name steps past files that exist (a second `r` within the same second, another
    /// session's recording of that second) instead of naming them: the writer refuses them.
    @Test func recordingNamesStepPastExistingFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-names-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let date = Date(timeIntervalSince1970: 1_795_411_724)
        let exists = { (name: String) in FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) }
        #expect(MonitorSession.recordingName(at: date, exists: exists) == "beacontop-20261123-052844.btsnoop")
        for name in ["beacontop-20261123-052844.btsnoop", "beacontop-20261123-052844-2.btsnoop", "beacontop-20261123-052844.venue.ndjson"] {
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data([1])))
        }
        #expect(MonitorSession.recordingName(at: date, exists: exists) == "beacontop-20261123-052844-3.btsnoop")
        #expect(MonitorSession.recordingName(at: date, venue: true, exists: exists) == "beacontop-20261123-052844-2.venue.ndjson")
        // `x`'s export steps the same way, past its own names only.
        #expect(MonitorSession.exportName(at: date, exists: exists) == "beacontop-20261123-052844.csv")
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("beacontop-20261123-052844.csv").path, contents: Data([1])))
        #expect(MonitorSession.exportName(at: date, exists: exists) == "beacontop-20261123-052844-2.csv")
    }

    @Test func aSpeedKeyAtEitherEndSaysItChangesNothing() {
        var session = MonitorSession(
            feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), replay: ReplayControl(), speed: .factor(64)
        )
        session.handle(.speedUp)
        session.handle(.speedUp)
        session.handle(.speedUp)
        let fastest = session.snapshot(now: 0)
        #expect(fastest.events.map(\.message) == ["speed 100x", "speed: already the fastest, 100x", "speed: already the fastest, 100x"])
        #expect(fastest.source.notice == "speed: already the fastest, 100x")
        var slow = MonitorSession(
            feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), replay: ReplayControl(), speed: .factor(0.25)
        )
        slow.handle(.slowDown)
        #expect(slow.snapshot(now: 0).events.map(\.message) == ["speed: already the slowest, 0.25x"])
    }

    /// Paused, the status line said `paused` and nothing of the speed: a `+` there was answered by
    /// a notice for 4 s, then `paused` no longer said what the replay resumes at. The state carries
    /// the speed as `replaying` does, for as long as it is paused.
    @Test func aSpeedKeyWhilePausedSaysTheSpeedToResumeAt() {
        let replay = ReplayControl(paused: true)
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), replay: replay, speed: .factor(1))
        #expect(session.snapshot(now: 0).source.state == .paused(speed: 1))
        session.handle(.speedUp)
        let paused = session.snapshot(now: 0)
        #expect(paused.source.state == .paused(speed: 2))
        #expect(session.snapshot(now: 60).source.state == .paused(speed: 2), "still said a minute later")
        #expect(paused.events.last?.message == "speed 2x")
        replay.resume()
        var playing = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), replay: replay, speed: .factor(1))
        playing.handle(.slowDown)
        let snapshot = playing.snapshot(now: 0)
        #expect(snapshot.source.state == .replaying(speed: 0.5))
        #expect(snapshot.source.notice == nil)
    }

    /// `r` where the recording cannot be created (the monitor started in a directory it cannot
    /// write in): said on the status line and as a warning. It was news in the event log only, so
    /// the key seemed to do nothing.
    @Test func aRecordingThatCannotStartSaysSoOnTheStatusLine() throws {
        let hand = HandSource()
        let recording = RecordingSource(hand) { path in throw RecordingError(path: path) }
        let inbox = SourceInbox()
        try recording.start(into: inbox)
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: inbox, recording: recording)
        session.handle(.toggleRecording)
        session.drain()
        let snapshot = session.snapshot(now: 0)
        #expect(snapshot.source.recordingFile == nil)
        let notice = try #require(snapshot.source.notice)
        #expect(notice.hasPrefix("cannot record: beacontop-") && notice.hasSuffix(": cannot write: Read-only file system"), "\(notice)")
        #expect(snapshot.events.map(\.kind) == [.warning])
        #expect(snapshot.events.map(\.message) == [notice])
    }

    struct RecordingError: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path): cannot write: Read-only file system" }
    }

    /// A replay held at its end (`replay finished`, the position at the length) stops the capture
    /// clock as a pause does: it ran on, so the table's beacons aged, went stale and lost their
    /// distance 5 s after the end, and after a minute left the table (`No beacon heard`).
    @Test func aReplayHeldAtItsEndStopsTheClock() throws {
        var (session, wall, inbox, _) = Self.replayAfterTwoSeconds()
        inbox.deliver([.notice(.ended(source: "hand", reason: "end of replay after 20 packets played"))], .dropWhenFull)
        session.drain()
        #expect(session.snapshot(now: wall.now()).source.state == .finished)
        wall.advance(70)
        let held = session.snapshot(now: wall.now())
        let row = try #require(held.rows.first)
        #expect(row.secondsSinceSeen < 0.5 && !row.isStale && row.accuracy != nil, "\(row)")
        // A seek back plays on from there: the clock runs again.
        inbox.deliver([.notice(.resumedFromEnd(source: "hand"))], .dropWhenFull)
        session.drain()
        _ = session.snapshot(now: wall.now())
        wall.advance(2)
        #expect(try #require(session.snapshot(now: wall.now()).rows.first).secondsSinceSeen > 1.5)
    }

    /// The `--exhibits` catalog moved or deleted while the monitor ran: a save writes nothing. It
    /// created the file again holding the one calibrated exhibit, and the monitor went on with that
    /// catalog: the title and every other exhibit's name gone from the table.
    @Test func aSaveToACatalogThatIsGoneWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-gone-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hall.yaml").path
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), catalogPath: path)
        session.handle(.saveCalibration(.iBeacon(uuid: MonitorFeedBoundTests.uuid, major: 1, minor: 2), measuredPower: -61))
        #expect(!FileManager.default.fileExists(atPath: path))
        let event = try #require(session.snapshot(now: 0).events.last)
        #expect(event.kind == .warning)
        #expect(event.message == "calibration not saved to \(path): the catalog is no longer there (moved or deleted since the monitor read it); nothing was written. Put it back")
    }

    /// `+` on a `--speed max` replay changes nothing: the status line says so, as it does at
    /// either end of the steps (it was said in the event log only).
    @Test func aSpeedKeyOnAMaxReplaySaysSoOnTheStatusLine() {
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox(), replay: ReplayControl(), speed: .max)
        session.handle(.speedUp)
        let snapshot = session.snapshot(now: 0)
        #expect(snapshot.source.notice == "speed: the replay runs at max (--speed max)")
        #expect(snapshot.events.map(\.message) == ["speed: the replay runs at max (--speed max)"])
    }

    @Test func replayCommandsNeedAReplay() {
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hci0")), inbox: SourceInbox())
        session.handle(.togglePause)
        session.handle(.speedUp)
        #expect(session.snapshot(now: 0).events.map(\.message) == [
            "pause works on replays (a file)", "speed works on replays (a file)",
        ])
    }
}
