import Monitor
import PacketSources
import Ranging
import Testing
import Venue

/// The monitor on a venue whose broker carries invented scanner names: the `n` list keeps the
/// view's limit, the status line counts the refused messages, and the event log says a refusal
/// and a forgetting once each, never one line per name, and never "retired" for a forgotten one.
@Suite("Scanner limit in the monitor's log")
struct ScannerLimitLogTests {
    static func status(_ name: String, _ payload: String = "online", at time: Double) -> BrokerMessage {
        BrokerMessage(topic: "espresense/rooms/\(name)/status", payload: Array(payload.utf8), receivedAt: time)
    }

    @Test("Refused names: one log line, counted on the status line; forgotten ones: one line, no 'retired'; a retirement still said")
    func saidOnce() {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1", state: .scanning))
        feed.startVenue(VenueView(settings: PresenceSettings(unlistedScannerLimit: 3)))
        for name in ["a", "b", "c"] { feed.feed(Self.status(name, at: 100)) }
        feed.feed(Self.status("d", at: 101))
        feed.feed(Self.status("e", at: 101))
        var snapshot = feed.snapshot(at: 101.5)
        #expect(snapshot.source.malformedCount == 2)
        // After the three 'online' lines of the same snapshot, so a broker full of names does not push it out of the log.
        #expect(snapshot.events.map(\.message).suffix(4).map { $0.prefix(18) } == ["scanner a online", "scanner b online", "scanner c online", "scanner d refused:"])
        feed.feed(Self.status("f", at: 102))
        snapshot = feed.snapshot(at: 102.5)
        #expect(snapshot.source.malformedCount == 3)
        let refusals = snapshot.events.map(\.message).filter { $0.contains("refused") }
        #expect(refusals.count == 1 && refusals.first?.hasPrefix("scanner d refused: 3 scanners not in the catalog") == true, "\(refusals)")

        for name in ["g", "h"] { feed.feed(Self.status(name, at: 130)) }
        _ = feed.snapshot(at: 130.5)
        feed.feed(Self.status("i", at: 131))
        snapshot = feed.snapshot(at: 131.5)
        #expect(snapshot.scanners.map(\.name) == ["g", "h", "i"])
        let messages = snapshot.events.map(\.message)
        #expect(messages.filter { $0.contains("forgotten") } == [
            "scanner b forgotten: the view keeps 3 scanners not in the catalog, and a new name takes the place of the one silent longest (said once)",
        ])
        #expect(messages.filter { $0.contains("retired") }.isEmpty, "\(messages)")

        feed.feed(Self.status("g", "", at: 132))
        snapshot = feed.snapshot(at: 132.5)
        #expect(snapshot.events.map(\.message).filter { $0.contains("retired") } == ["scanner g retired: its retained status was deleted"])
        #expect(snapshot.source.malformedCount == 3)
    }
}
