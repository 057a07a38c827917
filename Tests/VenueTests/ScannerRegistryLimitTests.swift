import Ranging
import Testing
@testable import Venue

/// A publisher inventing scanner names (a firmware putting its uptime in its room name, anyone on
/// an open broker): the view keeps at most `unlistedScannerLimit` scanners the catalog does not
/// list, a new name takes a dead one's place or is refused and counted, and only the rooms it
/// keeps get a retained occupancy. docs/venue.md "Invented scanner names".
@Suite("Scanner registry limit: invented scanner names")
struct ScannerRegistryLimitTests {
    static let online = Array("online".utf8)
    static let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"

    static func status(_ name: String) -> String { "espresense/rooms/\(name)/status" }

    static func reading(_ venue: inout VenueView, scanner: String, at time: Double) -> [VenueOutgoing] {
        let payload = #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","rssi":-60}"#
        return venue.receive(topic: "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/\(scanner)", payload: Array(payload.utf8), at: time)
    }

    /// Retained occupancy messages that set a count (an empty one deletes).
    static func occupancies(_ out: [VenueOutgoing]) -> [String] {
        out.filter { $0.retain && !$0.payload.isEmpty && $0.topic.hasPrefix("beacontop/occupancy/") }.map { String($0.topic.dropFirst(20)) }
    }

    @Test("10,000 invented names in 10 s: 1,000 kept, 9,000 messages refused and counted, 1,000 retained occupancies")
    func floodIsBounded() {
        var venue = VenueView()
        var announced: [String] = []
        for index in 0..<10_000 {
            announced += Self.occupancies(venue.receive(topic: Self.status("node-up\(index)"), payload: Self.online, at: 100 + Double(index) / 1000))
        }
        for second in 110...120 { announced += Self.occupancies(venue.tick(at: Double(second))) }
        announced += Self.occupancies(venue.finish(at: 121))
        #expect(venue.presence.scanners.scanners.count == 1_000)
        #expect(venue.refused == [VenueView.scannerLimitRefusal: 9_000])
        #expect(venue.refusedTotal == 9_000 && venue.decoder.refusedTotal == 0)
        #expect(venue.presence.scanners.firstRefused == "node-up1000")
        #expect(announced.count == 1_000 && Set(announced).count == 1_000)
        #expect(!announced.contains("node-up1000"), "a refused name's room is never announced")
    }

    @Test("A refused name's readings place nobody; the catalog's scanners are always taken")
    func refusedNamePlacesNobodyCatalogKept() {
        let catalog = ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "lobby")], scanners: [VenueScanner(id: "pi-lobby", room: "lobby")])
        var venue = VenueView(catalog: catalog, settings: PresenceSettings(unlistedScannerLimit: 3))
        for name in ["a", "b", "c", "d"] { _ = venue.receive(topic: Self.status(name), payload: Self.online, at: 100) }
        #expect(Set(venue.presence.scanners.scanners.keys) == ["pi-lobby", "a", "b", "c"])
        var out: [VenueOutgoing] = []
        for step in 0..<10 {
            out += Self.reading(&venue, scanner: "d", at: 101 + Double(step) * 0.5)
            out += venue.tick(at: 101 + Double(step) * 0.5)
        }
        #expect(venue.presence.room(of: Self.beacon) == nil, "hall d is not a scanner the view keeps")
        #expect(venue.refusedTotal == 11)
        for step in 0..<10 {
            out += Self.reading(&venue, scanner: "pi-lobby", at: 106 + Double(step) * 0.5)
            out += venue.tick(at: 106 + Double(step) * 0.5)
        }
        #expect(venue.presence.room(of: Self.beacon) == "lobby", "the catalog's scanner is taken with the limit reached")
        out += venue.finish(at: 112)
        #expect(!Self.occupancies(out).contains("d"))
        #expect(Set(Self.occupancies(out)) == ["lobby", "a", "b", "c"])
    }

    @Test("At the limit a new name takes the place of the scanner dead longest, whose retained occupancy is deleted")
    func deadScannerMakesRoom() {
        var venue = VenueView(settings: PresenceSettings(unlistedScannerLimit: 3))
        var out: [VenueOutgoing] = []
        _ = venue.receive(topic: Self.status("a"), payload: Self.online, at: 100)
        _ = venue.receive(topic: Self.status("b"), payload: Self.online, at: 101)
        _ = venue.receive(topic: Self.status("c"), payload: Self.online, at: 102)
        out += venue.tick(at: 112)
        #expect(Self.occupancies(out) == ["a", "b", "c"])
        _ = venue.receive(topic: Self.status("d"), payload: Self.online, at: 120)
        #expect(venue.presence.scanners.scanners["d"] == nil, "all three alive: refused")
        _ = venue.receive(topic: Self.status("c"), payload: Self.online, at: 125)
        // 126.5: a and b silent past 25 s, c not; a is dead longest.
        let admitted = venue.receive(topic: Self.status("e"), payload: Self.online, at: 126.5)
        #expect(Set(venue.presence.scanners.scanners.keys) == ["b", "c", "e"])
        #expect(venue.presence.scanners.forgotten == 1 && venue.presence.scanners.lastForgotten?.name == "a")
        let deleted = admitted.filter { $0.retain && $0.payload.isEmpty }.map(\.topic)
        #expect(deleted == ["beacontop/occupancy/a"], "the forgotten room's retained occupancy is deleted")
        // An offline scanner is dead at once, however recently heard.
        _ = venue.receive(topic: Self.status("e"), payload: Array("offline".utf8), at: 127)
        _ = venue.receive(topic: Self.status("f"), payload: Self.online, at: 127.5)
        #expect(Set(venue.presence.scanners.scanners.keys) == ["c", "e", "f"], "b, silent longest, goes before e, offline")
        _ = venue.receive(topic: Self.status("g"), payload: Self.online, at: 127.6)
        #expect(Set(venue.presence.scanners.scanners.keys) == ["c", "f", "g"])
        #expect(venue.refusedTotal == 1)
        // A forgotten room heard again (once a place is free) is learnt and announced again.
        out = venue.receive(topic: Self.status("a"), payload: Self.online, at: 160)
        out += venue.tick(at: 170)
        #expect(Self.occupancies(out).contains("a"))
    }

    @Test("A refusal notes when a scanner can next die; an offline status makes one dead before then")
    func offlineAfterRefusalMakesRoom() {
        var venue = VenueView(settings: PresenceSettings(unlistedScannerLimit: 2))
        _ = venue.receive(topic: Self.status("a"), payload: Self.online, at: 100)
        _ = venue.receive(topic: Self.status("b"), payload: Self.online, at: 100)
        // Refused: both alive, and none can die of silence before 125.
        _ = venue.receive(topic: Self.status("c"), payload: Self.online, at: 101)
        #expect(venue.presence.scanners.scanners["c"] == nil)
        // b says offline at 102, long before 125: dead now, so d takes its place.
        _ = venue.receive(topic: Self.status("b"), payload: Array("offline".utf8), at: 102)
        _ = venue.receive(topic: Self.status("d"), payload: Self.online, at: 103)
        #expect(Set(venue.presence.scanners.scanners.keys) == ["a", "d"])
        #expect(venue.refusedTotal == 1)
    }

    @Test("A forgotten room the catalog names keeps its retained occupancy")
    func catalogRoomNotDeleted() {
        let catalog = ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "kitchen")], scanners: [])
        var venue = VenueView(catalog: catalog, settings: PresenceSettings(unlistedScannerLimit: 1))
        _ = venue.receive(topic: Self.status("kitchen"), payload: Self.online, at: 100)
        _ = venue.tick(at: 111)
        let out = venue.receive(topic: Self.status("hall"), payload: Self.online, at: 140)
        #expect(venue.presence.scanners.lastForgotten?.name == "kitchen")
        #expect(out.filter { $0.payload.isEmpty }.isEmpty)
    }
}
