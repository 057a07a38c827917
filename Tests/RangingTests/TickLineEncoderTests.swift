import BeaconFormats
import Foundation
import HCI
import NDJSON
import Testing
@testable import Ranging

@Suite struct TickLineEncoderTests {
    static let identity = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1)

    static func snapshot() -> RangingSnapshot {
        let reading = BeaconReading(
            identity: identity, address: BDAddress("C0:FF:EE:00:00:01")!, rssi: -67, filteredRSSI: -66.24,
            accuracy: 1.8412, accuracyRange: 1.2...2.9, proximity: .near,
            measuredPower: ResolvedMeasuredPower(dBm: -59, source: .defaultForNonsense, frameValue: 12),
            pathLossExponent: 2, packets: 9, totalPackets: 90, packetsPerSecond: 9.5, advertisingInterval: 0.1,
            firstSeen: 1_699_999_990, lastSeen: 1_699_999_999.95, isStale: false,
            exhibit: Exhibit(id: identity.description, name: "Tab\there \"quoted\"")
        )
        let stale = BeaconReading(
            identity: .eddystoneURL("https://example.com/\u{1}"), address: BDAddress(rawValue: 1), rssi: -90, filteredRSSI: nil,
            accuracy: -1, accuracyRange: nil, proximity: .unknown,
            measuredPower: ResolvedMeasuredPower(dBm: -61, source: .frame, frameValue: -61),
            pathLossExponent: 2, packets: 0, totalPackets: 4, packetsPerSecond: 0, advertisingInterval: nil,
            firstSeen: 1_699_999_900, lastSeen: 1_699_999_910, isStale: true, exhibit: nil
        )
        let region = BeaconRegion(name: "Hall", uuid: identity.proximityUUID!)
        return RangingSnapshot(
            time: 1_700_000_000, beacons: [reading, stale], nearest: identity,
            events: [RegionEvent(kind: .enter, region: region, time: 1_700_000_000)], evictedBeacons: 0
        )
    }

    @Test func theLineIsExactlyTheDocumentedSchema() {
        let expected = #"{"t":1700000000.0,"beacons":["#
            + #"{"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","kind":"ibeacon","address":"C0:FF:EE:00:00:01","rssi":-67,"#
            + #""filteredRssi":-66.2,"accuracy":1.84,"accuracyRange":[1.2,2.9],"rangeProbability":0.8,"proximity":"near","measuredPower":-59,"#
            + #""measuredPowerSource":"default-nonsense","frameMeasuredPower":12,"pathLossExponent":2,"packets":9,"#
            + #""packetsPerSecond":9.5,"interval":0.1,"lastSeen":1699999999.95,"stale":false,"exhibit":"Tab\there \"quoted\""},"#
            + #"{"id":"https://example.com/\u0001","kind":"eddystone-url","address":"00:00:00:00:00:01","rssi":-90,"#
            + #""filteredRssi":null,"accuracy":-1,"accuracyRange":null,"rangeProbability":0.8,"proximity":"unknown","measuredPower":-61,"#
            + #""measuredPowerSource":"frame","pathLossExponent":2,"packets":0,"packetsPerSecond":0,"interval":null,"#
            + #""lastSeen":1699999910.0,"stale":true}],"#
            + #""nearest":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","events":[{"type":"enter","region":"Hall","t":1700000000.0}]}"#
        #expect(TickLineEncoder.line(Self.snapshot()) == expected)
    }

    @Test func theLineParsesAsJSONWithTheRequiredFields() throws {
        var writer = JSONWriter()
        TickLineEncoder.appendLine(Self.snapshot(), to: &writer)
        #expect(writer.bytes.last == 0x0A)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes.dropLast())) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["t", "beacons", "nearest", "events"]))
        let beacons = try #require(object["beacons"] as? [[String: Any]])
        for key in ["id", "kind", "rssi", "filteredRssi", "accuracy", "accuracyRange", "rangeProbability", "proximity", "measuredPower", "packets"] {
            #expect(beacons.allSatisfy { $0[key] != nil }, "missing \(key)")
        }
        #expect(beacons[0]["exhibit"] as? String == "Tab\there \"quoted\"")
        #expect(beacons[1]["id"] as? String == "https://example.com/\u{1}")
    }

    @Test func nearestIsNullWhenNoExhibitIsNear() {
        var snapshot = Self.snapshot()
        snapshot.nearest = nil
        snapshot.beacons = []
        snapshot.events = []
        #expect(TickLineEncoder.line(snapshot) == #"{"t":1700000000.0,"beacons":[],"nearest":null,"events":[]}"#)
    }

    @Test func numbersAndStringsAreWrittenCorrectly() {
        func number(_ value: Double, _ decimals: Int, keepPoint: Bool = false) -> String {
            var writer = JSONWriter()
            writer.number(value, decimals: decimals, keepPoint: keepPoint)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        #expect(number(1.005, 2) == "1")  // binary 1.005 is 1.00499..., so it rounds down
        #expect(number(-0.004, 2) == "0")
        #expect(number(-66.25, 1) == "-66.3")  // exact half: rounded away from zero
        #expect(number(0.05, 2) == "0.05")
        #expect(number(12, 2) == "12")
        #expect(number(1_700_000_000.123456, 6, keepPoint: true) == "1700000000.123456")
        #expect(number(.nan, 2) == "null")
        #expect(number(.infinity, 2) == "null")
        var writer = JSONWriter()
        writer.integer(Int.min)
        writer.byte(0x20)
        writer.string("é\u{7F}\r\n\u{8}\u{C}\\/")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "-9223372036854775808 \"é\u{7F}\\r\\n\\b\\f\\\\/\"")
    }

    /// Strings that escape at worst (six bytes per control character) in every beacon, and enough
    /// beacons to grow the writer's buffer several times: each beacon's reservation holds, and the
    /// line parses back to the same strings.
    @Test func worstCaseStringsFitTheirReservationAndRoundTrip() throws {
        let hostile = String(repeating: "\u{1}\u{1F}\"\\", count: 40)
        var snapshot = Self.snapshot()
        let template = snapshot.beacons[0]
        snapshot.beacons = (0..<30).map { index in
            var reading = template
            reading.identity = .eddystoneURL(hostile + String(index))
            reading.id = reading.identity.description
            reading.exhibit = Exhibit(id: reading.id, name: hostile)
            return reading
        }
        var writer = JSONWriter(capacity: 0)
        TickLineEncoder.appendLine(snapshot, to: &writer)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes.dropLast())) as? [String: Any])
        let beacons = try #require(object["beacons"] as? [[String: Any]])
        #expect(beacons.count == 30)
        #expect(beacons.enumerated().allSatisfy { $1["id"] as? String == hostile + String($0) && $1["exhibit"] as? String == hostile })
    }
}
