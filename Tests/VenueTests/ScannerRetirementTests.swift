import Ranging
import Testing
@testable import Venue

/// A scanner's retained status or telemetry deleted (an empty payload, MQTT's way to remove a
/// retained message): the scanner is retired, not a malformed message.
@Suite("Retired scanners")
struct ScannerRetirementTests {
    static let id = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"
    static let lost = #"{"scanner":"pi-a","t":100.0,"uptime":10.0,"advertsPerSecond":0,"beacons":0,"published":0,"buffered":0,"dropped":0,"droppedQoS1":0,"radio":"lost","radioReason":"hci0 removed"}"#

    @Test("An emptied status retires the scanner: it leaves the list, whoever only it placed leaves the room, nothing is refused")
    func emptiedStatusRetires() {
        var venue = VenueView()
        _ = venue.receive(topic: "beacontop/scanners/pi-a/status", payload: Array("online".utf8), at: 100, retained: true)
        _ = venue.receive(topic: "beacontop/scanners/pi-a/telemetry", payload: Array(Self.lost.utf8), at: 100, retained: true)
        _ = venue.receive(topic: "espresense/rooms/hall/status", payload: Array("online".utf8), at: 100, retained: true)
        for step in 0..<12 {
            let payload = #"{"id":"\#(Self.id)","rssi":-60}"#
            _ = venue.receive(topic: "espresense/devices/\(Self.id)/hall", payload: Array(payload.utf8), at: 100 + Double(step) * 0.5)
            _ = venue.tick(at: 100 + Double(step) * 0.5)
        }
        #expect(venue.presence.scanners.scanners["pi-a"]?.radio == .lost(reason: "hci0 removed"))
        #expect(venue.presence.room(of: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1") == "hall")
        _ = venue.takeEvents()

        _ = venue.receive(topic: "beacontop/scanners/pi-a/telemetry", payload: [], at: 106)
        #expect(venue.presence.scanners.scanners["pi-a"]?.radio == nil)
        _ = venue.receive(topic: "beacontop/scanners/pi-a/status", payload: [], at: 106)
        #expect(venue.presence.scanners.scanners["pi-a"] == nil)
        _ = venue.receive(topic: "espresense/rooms/hall/status", payload: [], at: 106.1)
        #expect(venue.presence.scanners.scanners["hall"] == nil)
        #expect(venue.takeEvents().map(\.kind) == [.exit, .visit], "the beacon only hall placed leaves at once")
        #expect(venue.decoder.refusedTotal == 0, "\(venue.decoder.refused)")
    }

    @Test("A catalog's scanner retired goes back to what the catalog declares, never heard")
    func catalogScannerStaysDeclared() {
        let catalog = ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "lobby")], scanners: [VenueScanner(id: "pi-lobby", room: "lobby", rssiOffset: 3)])
        var venue = VenueView(catalog: catalog)
        let declared = venue.presence.scanners.scanners["pi-lobby"]
        _ = venue.receive(topic: "beacontop/scanners/pi-lobby/status", payload: Array("online".utf8), at: 100, retained: true)
        #expect(venue.presence.scanners.scanners["pi-lobby"] != declared)
        _ = venue.receive(topic: "beacontop/scanners/pi-lobby/status", payload: [], at: 101)
        #expect(venue.presence.scanners.scanners["pi-lobby"] == declared)
        #expect(declared?.room == "lobby" && declared?.offset == 3 && declared?.lastHeard == nil)
    }
}
