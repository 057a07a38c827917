import Monitor
import PacketSources
import Ranging
import Testing
import Venue

/// The monitor on a venue: a scanner whose retained status is deleted leaves the scanner list
/// (`n`) with its radio state, and the event log says so once.
@Suite("A retired scanner in the monitor")
struct RetiredScannerLogTests {
    @Test("An emptied status: the scanner leaves the list, one log line says it was retired")
    func retiredScannerLeavesTheList() {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1", state: .scanning))
        feed.startVenue(VenueView())
        let lost = #"{"scanner":"pi-a","t":100.0,"uptime":10.0,"advertsPerSecond":0,"beacons":0,"published":0,"buffered":0,"dropped":0,"droppedQoS1":0,"radio":"lost","radioReason":"hci0 removed"}"#
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-a/status", payload: Array("online".utf8), receivedAt: 100, retained: true))
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-a/telemetry", payload: Array(lost.utf8), receivedAt: 100, retained: true))
        let before = feed.snapshot(at: 101)
        #expect(before.scanners.map(\.name) == ["pi-a"])
        #expect(before.scanners.first?.radioLost == "hci0 removed")
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-a/telemetry", payload: [], receivedAt: 102))
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-a/status", payload: [], receivedAt: 102))
        let after = feed.snapshot(at: 103)
        #expect(after.scanners.isEmpty)
        #expect(after.events.filter { $0.message.contains("retired") }.map(\.message) == ["scanner pi-a retired: its retained status was deleted"])
        #expect(after.source.malformedCount == 0)
        _ = feed.snapshot(at: 104)
        #expect(feed.events.filter { $0.message.contains("retired") }.count == 1)
    }

    @Test("A catalog's scanner retired stays listed as declared: one 'retired' line, no 'silent' one, no negative msg/s")
    func retiredCatalogScanner() throws {
        let catalog = ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "lobby")], scanners: [VenueScanner(id: "pi-lobby", room: "lobby", rssiOffset: 3)])
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1", state: .scanning))
        feed.startVenue(VenueView(catalog: catalog))
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-lobby/status", payload: Array("online".utf8), receivedAt: 100, retained: true))
        _ = feed.snapshot(at: 100.5)
        for step in 0..<40 {
            let time = 101 + Double(step) * 0.1
            let reading = #"{"t":\#(time),"beacon":{"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","kind":"iBeacon","rssi":-60}}"#
            feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-lobby/readings", payload: Array(reading.utf8), receivedAt: time))
            if step % 10 == 9 { _ = feed.snapshot(at: time) }
        }
        #expect(feed.snapshot(at: 105.5).scanners.first?.messagesPerSecond == 10)
        feed.feed(BrokerMessage(topic: "beacontop/scanners/pi-lobby/status", payload: [], receivedAt: 106))
        let after = feed.snapshot(at: 106.6)
        let scanner = try #require(after.scanners.first)
        #expect(after.scanners.count == 1 && scanner.messages == 0 && scanner.secondsSinceHeard == nil, "as the catalog declares it: \(scanner)")
        #expect(scanner.messagesPerSecond == nil, "no rate yet, not one counted against the messages before: \(scanner)")
        let lines = after.events.map(\.message).filter { $0.hasPrefix("scanner pi-lobby") }
        #expect(lines == ["scanner pi-lobby online", "scanner pi-lobby retired: its retained status was deleted"], "\(lines)")
        #expect(feed.snapshot(at: 108).events.filter { $0.message.hasPrefix("scanner pi-lobby") }.count == 2)
    }
}
