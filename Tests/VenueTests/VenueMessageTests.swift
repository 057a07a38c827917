import BeaconFormats
import HCI
import Ranging
import TestFixtures
import Testing
@testable import Venue

@Suite("Venue messages: beacontop's own formats and the decoder")
struct VenueMessageTests {
    static func reading(rssi: Int = -70, filtered: Double? = -69.5, accuracy: Double = 2.5) -> BeaconReading {
        BeaconReading(
            identity: .iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1),
            address: BDAddress("C0:11:22:33:44:55")!, rssi: rssi, filteredRSSI: filtered, accuracy: accuracy,
            accuracyRange: 2.0...3.1, proximity: .near, measuredPower: ResolvedMeasuredPower(dBm: -59, source: .frame, frameValue: -59),
            pathLossExponent: 2, packets: 3, totalPackets: 40, packetsPerSecond: 9.5, advertisingInterval: 0.1,
            firstSeen: 100, lastSeen: 104.9, isStale: false, exhibit: Exhibit(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", name: "Lobby \"east\"")
        )
    }

    @Test("beacontop's reading message carries the tick line's beacon object whole, and decodes to a scanner reading")
    func readingMessage() throws {
        let reading = Self.reading()
        let payload = ScannerReadingMessage.json(scanner: "pi-hall-a", time: 105.25, reading: reading)
        let text = String(decoding: payload, as: UTF8.self)
        let tick = TickLineEncoder.line(RangingSnapshot(time: 105.25, beacons: [reading], nearest: nil, events: []))
        let start = try #require(tick.range(of: #""beacons":["#)).upperBound
        let end = try #require(tick.range(of: #"],"nearest""#)).lowerBound
        let beaconObject = tick[start..<end]
        #expect(text == #"{"scanner":"pi-hall-a","t":105.25,"beacon":"# + beaconObject + "}")
        let decoded = try ScannerReadingMessage.reading(json: payload, scanner: "pi-hall-a", receivedAt: 106)
        #expect(decoded == ScannerReading(
            scanner: "pi-hall-a", beacon: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", time: 106, sentAt: 105.25, rssi: -69.5,
            measuredPower: -59, distance: 2.5, format: .beacontop
        ))
    }

    @Test("Telemetry round-trips")
    func telemetry() throws {
        var telemetry = ScannerTelemetry(scanner: "pi-1", time: 1_767_225_600, uptime: 3600, advertsPerSecond: 412.5, beacons: 37,
                                         published: 128_004, buffered: 3, dropped: 12, droppedQoS1: 1)
        telemetry.droppedStale = 40
        #expect(try ScannerTelemetry(json: telemetry.json(), scanner: "pi-1") == telemetry)
        // An agent from before droppedStale: read as 0.
        let older = Array(#"{"scanner":"pi-1","t":5.0,"uptime":1.0,"advertsPerSecond":0,"beacons":0,"published":1,"buffered":0,"dropped":0,"droppedQoS1":0}"#.utf8)
        #expect(try ScannerTelemetry(json: older, scanner: "pi-1").droppedStale == 0)
        #expect(try ScannerTelemetry(json: older, scanner: "pi-1").radio == nil, "an older agent says nothing of its radio")
        for radio in [ScannerTelemetry.RadioState.ok, .lost(reason: "the other end closed the connection")] {
            telemetry.radio = radio
            #expect(try ScannerTelemetry(json: telemetry.json(), scanner: "pi-1") == telemetry)
        }
        telemetry.radio = .lost(reason: "bad\u{1B}[2J")
        #expect(throws: VenueMessageError.self, "a reason with a control character is refused like a name") {
            try ScannerTelemetry(json: telemetry.json(), scanner: "pi-1")
        }
    }

    @Test("Visit events and occupancy round-trip through their JSON")
    func events() throws {
        for event in [
            VisitEvent(kind: .enter, beacon: "b\u{1B}[2J", room: "booth-12", time: 1000.5),
            VisitEvent(kind: .visit, beacon: "b", room: "booth-12", time: 1090.5, start: 1000.5),
            VisitEvent(kind: .exit, beacon: "b", room: "booth-12", time: 1090.5, decided: 1094.75),
            VisitEvent(kind: .visit, beacon: "b", room: "booth-12", time: 1090.5, start: 1000.5, decided: 1094.75),
        ] {
            #expect(try VisitEvent(json: event.json()) == event)
            #expect(!event.json().contains(0x1B), "escape characters are written as \\u001b")
        }
        #expect(String(decoding: VisitEvent(kind: .enter, beacon: "b", room: "r", time: 10, decided: 13).json(), as: UTF8.self)
            == #"{"type":"enter","beacon":"b","room":"r","t":10.0,"decided":13.0}"#)
        let occupancy = RoomOccupancy(room: "booth-12", beacons: ["a", "b"], time: 5)
        #expect(String(decoding: occupancy.json(), as: UTF8.self) == #"{"room":"booth-12","count":2,"beacons":["a","b"],"t":5.0}"#)
    }

    @Test("The decoder sorts every topic a venue view subscribes to")
    func decoder() throws {
        var decoder = VenueMessageDecoder(topics: VenueTopics(prefix: "v"))
        let espresense = decoder.decode(topic: "v/espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/kitchen",
                                        payload: Array(ESPresenseFormatTests.currentFirmware.utf8), receivedAt: 50)
        #expect(espresense == .reading(ScannerReading(scanner: "kitchen", beacon: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", time: 50,
                                                      rssi: -71.5, measuredPower: -59, distance: 3.98, format: .espresense)))
        #expect(decoder.decode(topic: "v/espresense/rooms/kitchen/status", payload: Array("offline".utf8), receivedAt: 51)
            == .scannerStatus(scanner: "kitchen", online: false, time: 51))
        #expect(decoder.decode(topic: "v/beacontop/scanners/pi-1/status", payload: Array("online\n".utf8), receivedAt: 52)
            == .scannerStatus(scanner: "pi-1", online: true, time: 52))
        let reading = ScannerReadingMessage.json(scanner: "pi-1", time: 52, reading: Self.reading())
        if case .reading(let decoded) = decoder.decode(topic: "v/beacontop/scanners/pi-1/readings", payload: reading, receivedAt: 53) {
            #expect(decoded.scanner == "pi-1" && decoded.time == 53 && decoded.sentAt == 52)
        } else {
            Issue.record("the reading was not decoded")
        }
        #expect(decoder.decode(topic: "v/beacontop/events/visit/x", payload: [0x7B], receivedAt: 54) == nil, "the view's own output")
        #expect(decoder.decode(topic: "elsewhere/espresense/rooms/kitchen/status", payload: Array("online".utf8), receivedAt: 54) == nil)
        #expect(decoder.accepted == 4 && decoder.refusedTotal == 0)
    }

    @Test("Malformed and hostile messages are counted by kind and never decoded")
    func hostile() {
        var decoder = VenueMessageDecoder()
        let device = "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/kitchen"
        let cases: [(String, [UInt8])] = [
            (device, Array("{not json".utf8)),
            (device, Array("{\"id\":\"x\",\"rssi\":-70,".utf8) + [UInt8](repeating: 0x20, count: 5000) + Array("}".utf8)),
            (device, [UInt8](repeating: 0x5B, count: 3000)),
            (device, Array(#"{"id":"x\u001b[31m","rssi":-70}"#.utf8)),
            (device, Array(#"{"id":"\u0000","rssi":-70}"#.utf8)),
            (device, [0xFF, 0xFE, 0x7B]),
            ("espresense/devices/x/evil\u{1B}]0;pwned\u{07}", Array(ESPresenseFormatTests.currentFirmware.utf8)),
            ("beacontop/scanners/pi-1/status", Array("maybe".utf8)),
            ("beacontop/scanners/pi-1/readings", Array(#"{"scanner":"pi-1","t":1}"#.utf8)),
            ("beacontop/scanners/pi-1/telemetry", Array(#"{"t":1e999}"#.utf8)),
            ("beacontop/scanners/pi-1/readings", [UInt8](repeating: 0x41, count: 1 << 20)),
        ]
        for (topic, payload) in cases {
            #expect(decoder.decode(topic: topic, payload: payload, receivedAt: 1) == nil, "\(topic)")
        }
        #expect(decoder.refused == ["oversized": 2, "malformed JSON": 4, "wrong shape": 5])
        #expect(decoder.refusedTotal == cases.count)
        #expect(decoder.accepted == 0)
    }

    @Test("An RSSI no receiver reports (1e300, -1e300, 200 dBm) is refused as a wrong shape, on both topics; -128 to 127 is taken")
    func rssiOutOfRange() {
        var decoder = VenueMessageDecoder()
        let device = "espresense/devices/irk:0011aabb/hall"
        for rssi in ["1e300", "-1e300", "200", "-128.5"] {
            #expect(decoder.decode(topic: device, payload: Array(#"{"id":"irk:0011aabb","rssi":\#(rssi)}"#.utf8), receivedAt: 1) == nil, "\(rssi)")
        }
        let reading = #"{"t":1,"beacon":{"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","kind":"iBeacon","filteredRssi":1e300}}"#
        #expect(decoder.decode(topic: "beacontop/scanners/pi-1/readings", payload: Array(reading.utf8), receivedAt: 1) == nil)
        #expect(decoder.refused == ["wrong shape": 5])
        for rssi in ["-128", "-71.5", "127"] {
            #expect(decoder.decode(topic: device, payload: Array(#"{"id":"irk:0011aabb","rssi":\#(rssi)}"#.utf8), receivedAt: 1) != nil, "\(rssi)")
        }
    }

    @Test("An ESPresense reading's negative distance is none, as a beacontop reading's accuracy of -1; its RSSI is kept")
    func negativeDistanceIsNone() {
        var decoder = VenueMessageDecoder()
        let topic = "espresense/devices/irk:0011aabb/hall"
        let payload = Array(#"{"id":"irk:0011aabb","rssi":-60,"distance":-3.5}"#.utf8)
        guard case .reading(let reading)? = decoder.decode(topic: topic, payload: payload, receivedAt: 1) else {
            Issue.record("refused: \(decoder.refused)")
            return
        }
        #expect(reading.distance == nil && reading.rssi == -60, "\(reading)")
        guard case .reading(let zero)? = decoder.decode(topic: topic, payload: Array(#"{"id":"irk:0011aabb","rssi":-60,"distance":0}"#.utf8), receivedAt: 2) else {
            Issue.record("refused: \(decoder.refused)")
            return
        }
        #expect(zero.distance == 0)
    }

    @Test("JSON reader: strict RFC 8259, depth-limited, surrogate pairs joined")
    func jsonReader() throws {
        #expect(try JSONValue(parsing: Array(#" {"a":[1,-2.5e2,true,null,"\ud83d\ude00\n"]} "#.utf8))
            == .object([("a", .array([.number(1), .number(-250), .bool(true), .null, .string("😀\n")]))]))
        let deep = Array(String(repeating: "[", count: 17).utf8) + Array(String(repeating: "]", count: 17).utf8)
        #expect(throws: JSONValueError.self) { try JSONValue(parsing: deep) }
        for text in ["-69.5", "1767225600.25", "0.05", "-0", "0", "123456789012345", "1234567890123456789", "2.675", "0.1", "1e3",
                     "-1.5E-7", "0.0000000000000000000000001", "99.999999999999999"] {
            #expect(try JSONValue(parsing: Array(text.utf8)) == .number(Double(text)!), "\(text) reads as the standard library reads it")
        }
        for bad in ["01", "1.", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "tru", "\"a\tb\"", "1 2"] {
            #expect(throws: JSONValueError.self, "\(bad)") { try JSONValue(parsing: Array(bad.utf8)) }
        }
    }
}
