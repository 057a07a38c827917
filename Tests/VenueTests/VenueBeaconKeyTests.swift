import BeaconFormats
import Foundation
import TestFixtures
import Testing
@testable import Venue

/// One beacon, one key, whatever form a scanner writes its id in (`VenueBeaconKey`): the forms of
/// beacontop, ESPresense (with its prefix and without), room-assistant and Home Assistant's
/// `mqtt_room`, in any case; ids that name no beacon are devices on the ESPresense topic and
/// refused on beacontop's (`VenueDeviceIDTests`).
@Suite("Venue beacon keys")
struct VenueBeaconKeyTests {
    static let iBeaconKey = "11223344-5566-7788-99AA-BBCCDDEEFF00:7:9"
    static let eddystoneKey = "01020304050607080910:a1b2c3d4e5f6"

    @Test("Every known form of an iBeacon's id is its one canonical key", arguments: [
        "11223344-5566-7788-99AA-BBCCDDEEFF00:7:9", // beacontop
        "11223344-5566-7788-99aa-bbccddeeff00:7:9",
        "iBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9", // ESPresense
        "altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9",
        "IBEACON:11223344-5566-7788-99AA-BBCCDDEEFF00-7-9",
        "11223344-5566-7788-99AA-BBCCDDEEFF00-7-9", // ESPresense's without its prefix, upper-case
        "112233445566778899aabbccddeeff00-7-9", // room-assistant, mqtt_room
        "11223344-5566-7788-99aa-bbccddeeff00-007-09",
        "iBeacon:11223344-5566-7788-99aa-bbccddeeff00:7:9",
    ])
    func iBeaconForms(id: String) {
        #expect(VenueBeaconKey.key(id) == Self.iBeaconKey)
    }

    @Test("Every known form of an Eddystone-UID's id is its one canonical key", arguments: [
        "01020304050607080910:a1b2c3d4e5f6", // beacontop
        "01020304050607080910:A1B2C3D4E5F6",
        "eddy:0102030405050607080910-a1b2c3d4e5f6", // ESPresense's firmware: namespace byte 5 twice
        "eddy:01020304050607080910-a1b2c3d4e5f6",
        "0102030405050607080910-A1B2C3D4E5F6", // without the prefix, upper-case
        "01020304050607080910-a1b2c3d4e5f6",
    ])
    func eddystoneForms(id: String) {
        #expect(VenueBeaconKey.key(id) == Self.eddystoneKey)
    }

    @Test("beacontop's other beacons keep their keys")
    func otherBeacons() {
        for id in ["eid:0011223344556677", "tlm:C0:11:22:33:44:55", "https://example.com/Exhibit?id=7"] {
            #expect(VenueBeaconKey.key(id) == id)
        }
        #expect(VenueBeaconKey.key("EID:0011223344556677") == "eid:0011223344556677")
        #expect(VenueBeaconKey.key("tlm:c0:11:22:33:44:55") == "tlm:C0:11:22:33:44:55")
    }

    @Test("Ids that name no beacon, or a mangled one, have no key", arguments: [
        "irk:0011aabb", "name:Visitor's phone", "0011AABB", "VISITOR'S PHONE", "apple:1005:9-26", "msft:cdp:0109", "c01122334455",
        "11223344-5566-7788-99AA-BBCCDDEEFF00", "11223344-5566-7788-99AA-BBCCDDEEFF00-7", "11223344-5566-7788-99AA-BBCCDDEEFF00-7:9",
        "11223344-5566-7788-99AA-BBCCDDEEFF00-7-9-1", "11223344-5566-7788-99AABBCCDDEEFF00-7-9", "1122334455667788-99AA-BBCCDDEEFF00-7-9",
        "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-+100-1", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100--1",
        "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-70000-1", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096\u{E9}-100-1",
        "iBeacon:e2c56db5dffb48d2b060d0f5a71096e4----100-1", "iBeacon: e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1",
        "eddy:0102030405060607080910-a1b2c3d4e5f6", "0102030405060708091011:a1b2c3d4e5f6", "01020304050607080910:a1b2c3d4e5", "x", "",
        "eid:00112233", "tlm:C0:11:22:33:44", "eddy:01020304050607080910-a1b2c3d4e5f6-1",
    ])
    func noBeacon(id: String) {
        #expect(VenueBeaconKey.key(id) == nil, "\(id.debugDescription)")
    }

    @Test("The iBeacon form is read on bytes as the regular expression reads it, on thousands of mutated ids")
    func uuidMajorMinorAgainstTheExpression() throws {
        // The iBeacon form, written as a regular expression: the oracle the byte parser is held to.
        let uuidMajorMinor = #/(?i)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})([:-])([0-9]{1,5})\2([0-9]{1,5})/#
        var generator = SeededGenerator(seed: 12)
        let seeds = ["11223344-5566-7788-99AA-BBCCDDEEFF00:7:9", "11223344-5566-7788-99aa-bbccddeeff00-65535-0",
                     "112233445566778899aabbccddeeff00-7-9", "e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"]
        var parsed = 0
        var total = 0
        for seed in seeds {
            for bytes in [Array(seed.utf8)] + VenueFastPathTests.mutations(of: Array(seed.utf8), count: 400, generator: &generator) {
                let text = String(decoding: bytes, as: UTF8.self)
                var expected: String?
                if let match = text.wholeMatch(of: uuidMajorMinor), let major = UInt16(match.3), let minor = UInt16(match.4) {
                    expected = "\(UUIDBytes(String(match.1))!):\(major):\(minor)"
                }
                let got = VenueBeaconKey.key(text)
                #expect(got == expected, "\(text.debugDescription)")
                total += 1
                if got != nil { parsed += 1 }
            }
        }
        // Most mutations break the id; enough keep it (a digit for a digit, a case changed) that both answers are held to the oracle.
        #expect(parsed >= 40 && total - parsed >= 40, "\(parsed) of \(total) parsed")
    }

    static func reading(_ id: String, scanner: String = "pi-a") -> (topic: String, payload: [UInt8]) {
        ("beacontop/scanners/\(scanner)/readings", Array(#"{"scanner":"\#(scanner)","t":1.0,"beacon":{"id":"\#(id)","rssi":-60}}"#.utf8))
    }

    @Test("The decoder keys a beacontop reading and an ESPresense message of one beacon alike, a phone's id as it came, and refuses an agent's id that names no beacon")
    func decoderFoldsBothTopics() throws {
        var decoder = VenueMessageDecoder()
        func beacon(_ topic: String, _ payload: [UInt8]) -> String? {
            guard case .reading(let reading)? = decoder.decode(topic: topic, payload: payload, receivedAt: 5) else { return nil }
            return reading.beacon
        }
        let agent = Self.reading("11223344-5566-7788-99AA-BBCCDDEEFF00-7-9")
        #expect(beacon(agent.topic, agent.payload) == Self.iBeaconKey)
        let esp = #"{"id":"altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9","rssi":-70}"#
        #expect(beacon("espresense/devices/altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9/hall", Array(esp.utf8)) == Self.iBeaconKey)
        let eddystone = Self.reading("0102030405050607080910-A1B2C3D4E5F6")
        #expect(beacon(eddystone.topic, eddystone.payload) == Self.eddystoneKey)
        #expect(decoder.refusedTotal == 0)

        let mangled = Self.reading("0011AABB")
        #expect(beacon(mangled.topic, mangled.payload) == nil, "beacontop's agents write beacons only")
        #expect(beacon("espresense/devices/irk:0011aabb/hall", Array(#"{"id":"irk:0011aabb","rssi":-70}"#.utf8)) == "irk:0011aabb", "a phone, as it came")
        #expect(decoder.refused == ["malformed beacon id": 1])
        #expect(decoder.accepted == 4)
    }
}
