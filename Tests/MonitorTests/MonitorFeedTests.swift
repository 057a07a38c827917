import BeaconFormats
import Captures
import Foundation
import HCI
import Monitor
import Ranging
import PacketSources
import TestFixtures
import Testing

/// The adapter from ranging to the monitor, driven by real captures and the committed museum walk.
@Suite struct MonitorFeedTests {
    static let demoCatalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml")
    static let demoWalk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop")

    /// Feeds a whole capture, taking a snapshot every `every` seconds of capture time.
    static func feedCapture(_ path: String, into feed: inout MonitorFeed, every: Double = 1, body: (MonitorSnapshot) -> Void = { _ in }) throws -> MonitorSnapshot {
        var reader = try CaptureReader(path: path)
        var nextSnapshot: Double?
        while let packet = try reader.next() {
            if let due = nextSnapshot, packet.timestamp >= due {
                body(feed.snapshot(at: due))
                nextSnapshot = due + every
            } else if nextSnapshot == nil {
                nextSnapshot = packet.timestamp.rounded(.down) + every
            }
            feed.feed(packet)
        }
        return feed.snapshot(at: try #require(feed.lastPacketTime))
    }

    @Test func rowsCarryTheEnginesReadingsHistoryRawFrameAndEveryFilter() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "govee-h5100.btsnoop"))
        let final = try Self.feedCapture(SharedData.capture("govee-h5100.btsnoop").path, into: &feed)

        // The same capture through the headless pipeline names the same beacons.
        var pipeline = BeaconPipeline(engine: RangingEngine())
        var reader = try CaptureReader(path: SharedData.capture("govee-h5100.btsnoop").path)
        while let packet = try reader.next() { pipeline.feed(packet) { _ in } }
        let reference = pipeline.engine.tick(at: try #require(feed.lastPacketTime))
        #expect(Set(final.rows.map(\.identity)) == Set(reference.beacons.map(\.identity)))
        #expect(!final.rows.isEmpty)

        let row = try #require(final.rows.first { $0.rssiHistory.count > 30 })
        #expect(row.rssiHistory.count <= 60)
        #expect(row.rssiHistory.allSatisfy { $0 < 0 && $0 > -127 })
        // The raw frame is the advertising data (here a scan response, no flags): an Apple iBeacon manufacturer record.
        let raw = row.lastRawFrame
        #expect(raw.count >= 27)
        #expect((0..<(raw.count - 3)).contains { raw[$0] == 0x4C && raw[$0 + 1] == 0x00 && raw[$0 + 2] == 0x02 && raw[$0 + 3] == 0x15 })
        #expect(row.filterEstimates.map(\.filterName) == RSSIFilterKind.allCases.map(\.rawValue))
        #expect(row.filterEstimates.contains { $0.accuracy != nil })
        #expect(final.source.advertsPerSecond > 0)
        #expect(final.filterNames == RSSIFilterKind.allCases.map(\.rawValue))
        #expect(final.activeFilter == "adaptive")
    }

    @Test func theMuseumWalkShowsTheNearestExhibitWithItsDescription() throws {
        let catalog = try ExhibitCatalog(contentsOf: Self.demoCatalog)
        var feed = MonitorFeed(catalog: catalog, status: SourceStatus(name: "museum-walk"))
        var panels: [String: String] = [:]
        _ = try Self.feedCapture(Self.demoWalk.path, into: &feed) { snapshot in
            if let nearest = snapshot.nearest, nearest.showsPanel { panels[nearest.name] = nearest.description }
            #expect(snapshot.title == catalog.title)
        }
        // The visitor stands in front of every exhibit in turn: most get their panel at some point.
        #expect(panels.count >= 7, "panels seen: \(panels.keys.sorted())")
        for (name, description) in panels {
            let exhibit = try #require(catalog.exhibits.first { $0.name == name })
            #expect(exhibit.description == description)
        }
        let log = feed.events
        #expect(log.contains { $0.kind == .enter })
        #expect(log.contains { $0.kind == .info && $0.message.hasPrefix("nearest: ") })
        #expect(log.allSatisfy { $0.time >= 0 })
    }

    @Test("reconnect attempts failing for one reason are one line in the event log, the newest")
    func reconnectAttemptsShareALine() {
        let source = "tcp:127.0.0.1:9000"
        var feed = MonitorFeed(status: SourceStatus(name: source))
        feed.note(.lost(source: source, reason: "the other end closed the connection"))
        feed.note(.reconnecting(source: source, attempt: 1, delay: 0.5, reason: "the other end closed the connection"))
        for attempt in 2...60 {
            feed.note(.reconnecting(source: source, attempt: attempt, delay: 1, reason: "connection refused"))
        }
        // Before: 61 lines, a minute of attempts; a night pushed every region event out of the 500 kept.
        #expect(feed.events.map(\.message) == [
            "\(source): lost (the other end closed the connection)",
            "\(source): the other end closed the connection; reconnecting in 0.5 s (attempt 1)",
            "\(source): connection refused; reconnecting in 1.0 s (attempt 60)",
        ])
        #expect(feed.status.state == .reconnecting(attempt: 60))
        // Another line between two attempts keeps the earlier attempt's line; so does another reason.
        feed.log(.info, "recording to x.btsnoop")
        feed.note(.reconnecting(source: source, attempt: 61, delay: 1, reason: "connection refused"))
        feed.note(.reconnecting(source: source, attempt: 62, delay: 1, reason: "connection timed out"))
        feed.note(.reconnecting(source: source, attempt: 63, delay: 1, reason: "connection refused"))
        #expect(feed.events.suffix(5).map(\.message) == [
            "\(source): connection refused; reconnecting in 1.0 s (attempt 60)",
            "recording to x.btsnoop",
            "\(source): connection refused; reconnecting in 1.0 s (attempt 61)",
            "\(source): connection timed out; reconnecting in 1.0 s (attempt 62)",
            "\(source): connection refused; reconnecting in 1.0 s (attempt 63)",
        ])
    }

    @Test func sourceNewsBecomesStateAndLogLines() {
        var feed = MonitorFeed(status: SourceStatus(name: "tcp:127.0.0.1:9000"))
        feed.note(.lost(source: "tcp:127.0.0.1:9000", reason: "connection reset"))
        #expect(feed.status.state == .lost(reason: "connection reset"))
        feed.note(.reconnecting(source: "tcp:127.0.0.1:9000", attempt: 2, delay: 1, reason: "connection refused"))
        #expect(feed.status.state == .reconnecting(attempt: 2))
        feed.note(.connected(source: "tcp:127.0.0.1:9000"))
        #expect(feed.status.state == .scanning)
        feed.note(.ended(source: "x.btsnoop", reason: "looping (1)"))
        #expect(feed.status.state == .scanning, "a looping replay goes on")
        feed.note(.ended(source: "x.btsnoop", reason: "end of replay after 3 packets"))
        #expect(feed.status.state == .finished)
        #expect(feed.events.map(\.kind) == [.warning, .warning, .info, .info, .info])
        #expect(feed.events[0].message.contains("connection reset"))
        // Before any packet the snapshot is status only, and carries the state.
        let snapshot = feed.snapshot(at: .nan)
        #expect(snapshot.rows.isEmpty)
        #expect(snapshot.source.state == .finished)
    }

    @Test("a refused restart is not scanning until a retry works, which is scanning again and said")
    func refusedRestartThenRetried() {
        var feed = MonitorFeed(status: SourceStatus(name: "tcp:127.0.0.1:9000"))
        let message = "scanning not restarted (retrying in 2 s): refused"
        feed.note(.restartFailed(source: "tcp:127.0.0.1:9000", message: message, retryIn: 2))
        #expect(feed.status.state == .notScanning(reason: message, retryIn: 2))
        #expect(feed.events.last?.message == "tcp:127.0.0.1:9000: " + message)
        feed.note(.restarted(source: "tcp:127.0.0.1:9000", activity: "scanning", tries: 3))
        #expect(feed.status.state == .scanning)
        #expect(feed.events.last?.kind == .info)
        #expect(feed.events.last?.message == "tcp:127.0.0.1:9000: scanning restarted after 3 tries")
    }

    @Test("an adapter brought up at start is an info line in the event log, not a state")
    func poweredOnIsLogged() {
        var feed = MonitorFeed(status: SourceStatus(name: "hci0:raw"))
        feed.note(.connected(source: "hci0:raw"))
        feed.note(.poweredOn(source: "hci0:raw"))
        #expect(feed.status.state == .scanning)
        #expect(feed.events.map(\.kind) == [.info, .info])
        #expect(feed.events.last?.message == "hci0:raw: the adapter was down; beacontop brought it up (HCIDEVUP, with CAP_NET_ADMIN)")
    }

    @Test func malformedReportsAreCountedNotFatal() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "test"))
        // LE Meta event, Advertising Report with 1 report but no room for it.
        let broken = HCIPacket(timestamp: 10, direction: .controllerToHost, type: .event, payload: [0x3E, 0x03, 0x02, 0x01, 0x00][...])
        feed.feed(broken)
        feed.feed(broken)
        let snapshot = feed.snapshot(at: 11)
        #expect(snapshot.source.malformedCount == 2)
        #expect(snapshot.rows.isEmpty)
    }

    static func iBeaconPacket(minor: UInt16, rssi: Int8, at time: Double) -> HCIPacket {
        let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: minor, measuredPower: -59)
        let advertisement = Advertisement(
            timestamp: time, address: BDAddress(rawValue: 0xC0_01_02_03_04_05), addressType: .randomDevice, eventKind: .advNonconnInd,
            rssi: rssi, data: frame.advertisingData[...]
        )
        return AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time)
    }

    @Test func calibrationCollectsTheSelectedBeaconAndGivesTheTrimmedMean() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "test"))
        let identity = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 7)
        feed.startCalibration(of: identity)
        let pattern: [Int8] = [-60, -62, -61, -63, -59]
        for step in 0..<19 {
            feed.feed(Self.iBeaconPacket(minor: 7, rssi: pattern[step % 5], at: 100 + Double(step) * 0.1))
            feed.feed(Self.iBeaconPacket(minor: 8, rssi: -40, at: 100 + Double(step) * 0.1))
        }
        var progress = try #require(feed.snapshot(at: 102).calibration)
        #expect(progress.samplesCollected == 19)
        #expect(!progress.isComplete)
        #expect(progress.measuredPower == nil)
        feed.feed(Self.iBeaconPacket(minor: 7, rssi: -59, at: 102.1))
        progress = try #require(feed.snapshot(at: 103).calibration)
        #expect(progress.isComplete)
        let power = try #require(progress.measuredPower)
        #expect(abs(power - -60.8) < 0.5, "measured power \(power)")
        #expect(try #require(progress.spread) < 2)
        feed.calibrationSaved(to: "museum.yaml", measuredPower: -61)
        #expect(feed.snapshot(at: 104).calibration?.savedTo == "museum.yaml")
        feed.cancelCalibration()
        #expect(feed.snapshot(at: 105).calibration == nil)
    }

    @Test func aFilterChangeRangesWithTheNewFilterAndAnUnknownNameIsRefused() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "test"))
        try feed.selectFilter(named: "kalman")
        #expect(feed.configuration.filter == .kalman)
        for step in 0..<30 { feed.feed(Self.iBeaconPacket(minor: 1, rssi: -65, at: 50 + Double(step) * 0.1)) }
        let snapshot = feed.snapshot(at: 53)
        #expect(snapshot.activeFilter == "kalman")
        #expect(snapshot.rows.count == 1)
        #expect(throws: RangingConfigurationError.self) { try feed.selectFilter(named: "median") }
        #expect(feed.configuration.filter == .kalman)
    }

    /// A catalog entry without a `name` (optional: it defaults to the id) is shown as an
    /// uncatalogued beacon is, by its short id: its whole id as the name cut every row of one UUID
    /// to the same `8F3A2C61-5B7E-4D1…` at 80 columns, and the detail pane said the id twice.
    @Test func anExhibitWithoutANameShowsItsShortId() throws {
        let catalog = try ExhibitCatalog(yaml: """
            exhibits:
              - id: "e2c56db5-dffb-48d2-b060-d0f5a71096e4:1:1"
              - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"
              - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3"
                name: Globe
            """)
        var feed = MonitorFeed(catalog: catalog, status: SourceStatus(name: "test"))
        for step in 0..<30 {
            for minor: UInt16 in 1...3 { feed.feed(Self.iBeaconPacket(minor: minor, rssi: -60, at: 10 + Double(step) * 0.1)) }
        }
        let rows = feed.snapshot(at: 13).rows.sorted { $0.identity.description < $1.identity.description }
        #expect(rows.map(\.exhibitName) == [nil, nil, "Globe"])
        #expect(rows.map(\.displayName) == ["E2C56DB5…:1:1", "E2C56DB5…:1:2", "Globe"])
    }

    /// `f` and the calibration wizard's save keep the engine: the region a visitor is inside logs no second enter.
    @Test func aFilterChangeOrANewCatalogLogsNoSecondEnter() throws {
        let id = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3"
        var feed = MonitorFeed(catalog: ExhibitCatalog(exhibits: [Exhibit(id: id, name: "Globe")]), status: SourceStatus(name: "test"))
        for step in 0..<90 {
            feed.feed(Self.iBeaconPacket(minor: 3, rssi: -55, at: 10 + Double(step) * 0.1))
            if step % 10 == 9 { _ = feed.snapshot(at: 10 + Double(step + 1) * 0.1) }
            if step == 29 { try feed.selectFilter(named: "kalman") }
            if step == 59 { feed.replaceCatalog(ExhibitCatalog(exhibits: [Exhibit(id: id, name: "Globe", measuredPower: -52)])) }
        }
        #expect(feed.events.filter { $0.kind == .enter }.map(\.message) == ["Globe"])
        #expect(!feed.events.contains { $0.kind == .exit })
        #expect(feed.snapshot(at: 19.5).rows.first?.measuredPower == -52)
    }

    /// The status line's position is read at each tick; events logged between ticks (a packet's
    /// capture time, as a replay at `--speed max` feeds many per tick) are shown at the position
    /// their capture time is at, not the last tick's.
    @Test("a replay's event carries its position at its capture time: the last tick's position plus the capture seconds since")
    func eventsBetweenTicksCarryTheirPosition() {
        var feed = MonitorFeed(status: SourceStatus(name: "museum-walk.btsnoop"))
        feed.status.replayPosition = 120
        feed.feed(Self.iBeaconPacket(minor: 1, rssi: -60, at: 1000))
        _ = feed.snapshot(at: 1000)
        feed.log(.info, "between ticks", at: 1004.5)
        let event = feed.snapshot(at: 1005).events.last { $0.message == "between ticks" }
        #expect(event?.time == 4.5 && event?.position == 124.5 && event?.shownTime == 124.5, "\(String(describing: event))")
    }

    /// A seek back shifts the replay's capture times forward (`ReplayEngine`: ranging time never
    /// runs back), so the last tick's anchor no longer turns capture time into the position: an
    /// event just after a 30 s seek back was shown 30 s late, until the next tick.
    @Test("an event logged just after a seek back carries the position the seek landed at, not the old tick's")
    func eventsAfterASeekCarryTheNewPosition() {
        var feed = MonitorFeed(status: SourceStatus(name: "museum-walk.btsnoop"))
        feed.status.replayPosition = 120
        feed.feed(Self.iBeaconPacket(minor: 1, rssi: -60, at: 1000))
        _ = feed.snapshot(at: 1000)
        // ← ← ←: from 120 s back to 90 s; the packets from there come on from capture time 1000.
        feed.note(.sought(source: "museum-walk.btsnoop", position: 90, capture: 1000))
        feed.log(.info, "after the seek", at: 1002)
        let event = feed.events.last { $0.message == "after the seek" }
        #expect(event?.position == 92, "\(String(describing: event))")
    }

    /// Held at its end a replay's clock stops, so no second passed to measure the rate again: the
    /// status line kept the last pass's `31 adv/s` under `replay finished`.
    @Test("a finished replay's rate reads 0, not the last one measured")
    func aFinishedReplaysRateIsZero() {
        var feed = MonitorFeed(status: SourceStatus(name: "museum-walk.btsnoop"))
        feed.feed(Self.iBeaconPacket(minor: 1, rssi: -60, at: 999.9))
        _ = feed.snapshot(at: 1000)
        for step in 0..<30 { feed.feed(Self.iBeaconPacket(minor: 1, rssi: -60, at: 1000 + Double(step) * 0.1)) }
        #expect(feed.snapshot(at: 1003).source.advertsPerSecond == 10)
        feed.note(.ended(source: "museum-walk.btsnoop", reason: "end of replay after 30 packets"))
        #expect(feed.snapshot(at: 1003).source.advertsPerSecond == 0)
        #expect(feed.snapshot(at: 1003).source.state == .finished)
    }

    /// `--from` past the end as given, as `scan` and the event log's line say it: rounded down to a
    /// tenth like the span, `--from 210.77` read `210.7`, as if inside the file's 0-210.7 s.
    @Test("nothing replayed names --from as given")
    func nothingReplayedNamesFromAsGiven() {
        var feed = MonitorFeed(status: SourceStatus(name: "govee-h5100.btsnoop"))
        feed.note(.pastTheEnd(source: "govee-h5100.btsnoop", from: 210.77, last: 210.768))
        #expect(feed.status.state == .nothingReplayed(reason: "--from 210.77 s is past the end (0-210.7 s)"))
    }
}
