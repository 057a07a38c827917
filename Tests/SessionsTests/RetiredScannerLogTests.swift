import Monitor
import PacketSources
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
}
