import Testing
@testable import Venue

/// Ids that name no beacon (an ESPresense node's phones: `irk:...`, `name:...`) are tracked as the
/// devices they name, under the id as it came, as foot-traffic counting needs; an id that claims a
/// beacon and is mangled is refused, counted as `malformed beacon id` (docs/venue.md "Beacon ids").
@Suite("Venue device ids")
struct VenueDeviceIDTests {
    static let phone = "irk:5ab3c0e1f2d4a6b8c9d0e1f2a3b4c5d6"

    static func espresense(_ id: String, room: String = "hall") -> (topic: String, payload: [UInt8]) {
        ("espresense/devices/x/\(room)", Array(#"{"id":"\#(id)","rssi":-60,"distance":1.0}"#.utf8))
    }

    static func agent(_ id: String, kind: String) -> (topic: String, payload: [UInt8]) {
        ("beacontop/scanners/pi-a/readings", Array(#"{"scanner":"pi-a","t":1.0,"beacon":{"id":"\#(id)","kind":"\#(kind)","rssi":-60}}"#.utf8))
    }

    @Test("A phone's irk: id on the ESPresense topic enters the room, makes a visit under its id, and is not malformed")
    func phoneMakesAVisit() {
        var venue = VenueView()
        _ = venue.receive(topic: "espresense/rooms/hall/status", payload: Array("online".utf8), at: 100, retained: true)
        var events: [VisitEvent] = []
        for step in 0..<40 {
            let time = 100 + Double(step) * 0.5
            let (topic, payload) = Self.espresense(Self.phone)
            _ = venue.receive(topic: topic, payload: payload, at: time)
            _ = venue.tick(at: time)
            events += venue.takeEvents()
        }
        #expect(venue.presence.room(of: Self.phone) == "hall")
        _ = venue.receive(topic: "espresense/rooms/hall/status", payload: Array("offline".utf8), at: 121)
        _ = venue.tick(at: 121)
        events += venue.takeEvents()
        let visits = events.filter { $0.kind == .visit }
        #expect(visits.count == 1 && visits.first?.beacon == Self.phone && visits.first?.room == "hall", "\(events)")
        #expect(venue.decoder.refusedTotal == 0, "\(venue.decoder.refused)")
    }

    @Test("Ids that name no beacon are devices, under the id as it came", arguments: [
        "irk:0011aabb", "name:Visitor's phone", "apple:1005:9-26", "msft:cdp:0109", "c01122334455", "11223344-5566-7788-99AA-BBCCDDEEFF00",
    ])
    func devicesKeepTheirIds(id: String) {
        var decoder = VenueMessageDecoder()
        let (topic, payload) = Self.espresense(id)
        guard case .reading(let reading)? = decoder.decode(topic: topic, payload: payload, receivedAt: 1) else {
            Issue.record("\(id) refused: \(decoder.refused)")
            return
        }
        #expect(reading.beacon == id)
    }

    @Test("An ESPresense id with a beacon's prefix that does not parse is refused as a malformed beacon id", arguments: [
        "iBeacon:not-a-uuid-1-2", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-70000-1", "altBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-1",
        "IBEACON:e2c56db5-dffb-48d2-b060-d0f5a71096e4", "eddy:0102030405060607080910-a1b2c3d4e5f6",
    ])
    func mangledESPresenseBeacon(id: String) throws {
        var decoder = VenueMessageDecoder()
        let (topic, payload) = Self.espresense(id)
        #expect(decoder.decode(topic: topic, payload: payload, receivedAt: 1) == nil)
        #expect(decoder.refused == ["malformed beacon id": 1])
        #expect(throws: VenueMessageError.malformedBeaconID("a beacon type prefix on an id that is no beacon's")) {
            try VenueMessageDecoder.input(topic: topic, payload: payload, receivedAt: 1, topics: VenueTopics())
        }
    }

    @Test("A beacontop reading whose id is no beacon, or no beacon of its kind, is refused as a malformed beacon id")
    func mangledBeacontopReading() throws {
        var decoder = VenueMessageDecoder()
        for (id, kind) in [("0011AABB", "ibeacon"), ("irk:0011aabb", "ibeacon"), ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100", "ibeacon"),
                           ("01020304050607080910:a1b2c3d4e5f6", "ibeacon"), ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", "eddystone-uid")] {
            let (topic, payload) = Self.agent(id, kind: kind)
            #expect(decoder.decode(topic: topic, payload: payload, receivedAt: 1) == nil, "\(id)")
        }
        #expect(decoder.refused == ["malformed beacon id": 5])
        let (topic, payload) = Self.agent("0011AABB", kind: "ibeacon")
        #expect(throws: VenueMessageError.malformedBeaconID("a beacontop reading's id that is no beacon's")) {
            try VenueMessageDecoder.input(topic: topic, payload: payload, receivedAt: 1, topics: VenueTopics())
        }
        #expect(VenueMessageError.malformedBeaconID("x").description == "malformed beacon id: x")

        for (id, kind) in [("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", "altbeacon"), ("01020304050607080910:a1b2c3d4e5f6", "eddystone-uid"),
                           ("eid:0011223344556677", "eddystone-eid"), ("https://example.com", "eddystone-url")] {
            let (topic, payload) = Self.agent(id, kind: kind)
            guard case .reading(let reading)? = decoder.decode(topic: topic, payload: payload, receivedAt: 1) else {
                Issue.record("\(id) (\(kind)) refused")
                continue
            }
            #expect(reading.beacon == id)
        }
    }
}
