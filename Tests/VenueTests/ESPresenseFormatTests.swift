import BeaconFormats
import HCI
import Ranging
import TestFixtures
import Testing
@testable import Venue

/// ESPresense's device messages, both directions. The fixtures are written in the exact shape the
/// firmware's `BleFingerprint::fill` produces (keys in its order, numbers as ArduinoJson's
/// `serialized(String(x, 2))` prints them): the current firmware, and an older one with `raw`,
/// `speed` and `interval`.
@Suite("ESPresense device format")
struct ESPresenseFormatTests {
    static let currentFirmware = #"{"mac":"c9a0f1e2d3b4","id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","name":"Lobby","rssi@1m":-59,"rssi":-71.50,"rxAdj":0,"rssiVar":4.12,"distance":3.98,"var":0.64,"close":true,"int":102}"#
    static let olderFirmware = #"{"id":"altBeacon:494e5445-4c4c-495f-524f-434b535f4857-20596-3932","idType":15,"rssi@1m":-62,"rssi":-80,"raw":7.94,"distance":7.10,"speed":-0.02,"mac":"a4c138aabbcc","interval":1004}"#
    static let eddystoneFirmware = #"{"mac":"d0e1f2a3b4c5","id":"eddy:edd1ebeac0c04e5defa017-0123456789ab","rssi@1m":-61,"rssi":-66.25,"rxAdj":0,"distance":1.52,"var":0.20,"int":1000}"#

    @Test("Current firmware: every field read, extra keys (rxAdj, close) ignored")
    func currentFirmware() throws {
        let message = try ESPresenseDeviceMessage(json: Array(Self.currentFirmware.utf8))
        #expect(message == ESPresenseDeviceMessage(
            id: "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1", mac: "c9a0f1e2d3b4", name: "Lobby", rssiAt1m: -59, rssi: -71.5,
            distance: 3.98, variance: 0.64, interval: 102, rssiVariance: 4.12
        ))
        #expect(VenueBeaconKey.key(message.id) == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1")
    }

    @Test("Older firmware: raw distance and 'interval' instead of 'int'")
    func olderFirmware() throws {
        let message = try ESPresenseDeviceMessage(json: Array(Self.olderFirmware.utf8))
        #expect(message.raw == 7.94 && message.distance == 7.1 && message.interval == 1004 && message.rssi == -80)
        #expect(VenueBeaconKey.identity(message.id) == .altBeacon(id1: UUIDBytes("494E5445-4C4C-495F-524F-434B535F4857")!, id2: 20596, id3: 3932))
    }

    @Test("Eddystone ids: the firmware's 11-byte namespace (byte 5 printed twice) and a correct 10-byte one name the same beacon")
    func eddystoneQuirk() throws {
        let message = try ESPresenseDeviceMessage(json: Array(Self.eddystoneFirmware.utf8))
        let namespace: [UInt8] = [0xED, 0xD1, 0xEB, 0xEA, 0xC0, 0x4E, 0x5D, 0xEF, 0xA0, 0x17]
        let expected = BeaconIdentity.eddystoneUID(namespace: namespace, instance: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        let quirky = "eddy:edd1ebeac0c04e5defa017-0123456789ab"
        #expect(VenueBeaconKey.identity(quirky) == expected)
        #expect(VenueBeaconKey.identity("eddy:edd1ebeac04e5defa017-0123456789ab") == expected)
        #expect(ESPresenseID.string(for: expected) == quirky, "written as the firmware writes it, so both scanners name one device")
        #expect(VenueBeaconKey.identity("eddy:edd1ebeac0c14e5defa017-0123456789ab") == nil, "11 bytes without the repeated byte is no namespace")
        #expect(VenueBeaconKey.identity(message.id) == expected)
        #expect(VenueBeaconKey.key(message.id) == expected.description)
        #expect(VenueBeaconKey.identity("eddy:edd1ebeac04e5defa017a017a017-0123456789ab") == nil, "12 bytes is no namespace")
    }

    @Test("Ids round-trip for iBeacon and AltBeacon; other ESPresense ids stay opaque keys, mangled beacon ids are refused", arguments: [
        BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 0, minor: 65535),
        .altBeacon(id1: UUIDBytes("494E5445-4C4C-495F-524F-434B535F4857")!, id2: 1, id3: 2),
    ])
    func idRoundTrip(identity: BeaconIdentity) throws {
        let id = try #require(ESPresenseID.string(for: identity))
        #expect(id == id.lowercased().replacingOccurrences(of: "ibeacon:", with: "iBeacon:").replacingOccurrences(of: "altbeacon:", with: "altBeacon:"))
        #expect(VenueBeaconKey.identity(id) == identity)
        var decoder = VenueMessageDecoder()
        for opaque in ["irk:1234567890abcdef1234567890abcdef", "name:jane-s-iphone", "apple:1005:9-26", "iBeacon:not-a-uuid-1-2", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-70000-1"] {
            #expect(VenueBeaconKey.identity(opaque) == nil)
            #expect(VenueBeaconKey.key(opaque) == nil)
            let input = decoder.decode(topic: "espresense/devices/x/hall", payload: Array(#"{"id":"\#(opaque)","rssi":-60}"#.utf8), receivedAt: 1)
            if opaque.hasPrefix("iBeacon:") {
                #expect(input == nil, "a mangled beacon id is refused")
            } else if case .reading(let reading)? = input {
                #expect(reading.beacon == opaque, "another ESPresense id stays an opaque key")
            } else {
                Issue.record("\(opaque) refused")
            }
        }
        #expect(decoder.refused == ["malformed beacon id": 2])
        #expect(ESPresenseID.string(for: .eddystoneURL("https://example.com")) == nil)
    }

    @Test("An id with more bytes than characters (multi-byte and combining characters in the UUID) names no beacon, and does not trap")
    func multiByteIdsAreNoBeacon() {
        // fuzz-venue's find: 38 bytes after "iBeacon:" but fewer than 37 Characters.
        for id in ["iBeacon:e2cd\u{15A}\u{35C}56db5-dfacon:e2cd\u{15A}\u{35C}56d334455", "altBeacon:\u{e9}\u{301}\u{e9}\u{301}\u{e9}\u{301}\u{e9}\u{301}\u{e9}\u{301}\u{e9}\u{301}\u{e9}\u{301}-1-2", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e\r\n-1-2"] {
            #expect(VenueBeaconKey.identity(id) == nil)
            #expect(VenueBeaconKey.key(id) == nil)
        }
    }

    @Test("What ESPresense consumers need is refused when missing or mistyped", arguments: [
        (#"{"rssi":-70}"#, "wrong shape"),
        (#"{"id":"","rssi":-70}"#, "wrong shape"),
        (#"{"id":"x","rssi":"-70"}"#, "wrong shape"),
        (#"{"id":"x"}"#, "wrong shape"),
        (#"["id"]"#, "wrong shape"),
        (#"{"id":"x","rssi":-70"#, "malformed JSON"),
        (#"{"id":"x","rssi":NaN}"#, "malformed JSON"),
    ])
    func refusals(payload: String, kind: String) {
        #expect {
            _ = try ESPresenseDeviceMessage(json: Array(payload.utf8))
        } throws: { error in
            (error as? VenueMessageError)?.kindName == kind
        }
    }

    @Test("A beacontop agent's message from real captures: ranged readings encode to what the decoder and consumers read back")
    func encodeFromRealCapture() throws {
        var pipeline = BeaconPipeline(engine: RangingEngine())
        var readings: [BeaconReading] = []
        for packet in try CapturedEvents.leMetaEvents(in: "govee-h5100.btsnoop") {
            pipeline.feed(packet) { readings += $0.beacons }
        }
        let fresh = readings.filter { !$0.isStale && $0.filteredRSSI != nil && $0.accuracy >= 0 }
        #expect(fresh.count > 20)
        for reading in fresh {
            let message = try #require(ESPresenseDeviceMessage(reading: reading))
            let decoded = try ESPresenseDeviceMessage(json: message.json())
            #expect(decoded.id.hasPrefix("iBeacon:494e5445-4c4c-495f-524f-434b535f4857-"))
            #expect(VenueBeaconKey.key(decoded.id) == reading.id)
            #expect(decoded.mac == reading.addressText.replacingOccurrences(of: ":", with: "").lowercased())
            #expect(decoded.rssiAt1m == reading.measuredPower.dBm.rounded())
            #expect(abs(decoded.rssi! - reading.filteredRSSI!) <= 0.005)
            #expect(abs(decoded.distance! - reading.accuracy) <= 0.005)
            #expect(decoded.raw != nil && decoded.variance != nil)
        }
        let framePowered = try #require(fresh.first { $0.measuredPower.source == .frame })
        let sample = try #require(ESPresenseDeviceMessage(reading: framePowered))
        let text = String(decoding: sample.json(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"mac":""#))
        #expect(text.contains(#","rssi@1m":-62,"rssi":"#))
        #expect(ESPresenseDeviceMessage(reading: { var stale = fresh[0]; stale.isStale = true; return stale }()) == nil)
    }

    @Test("Topics: names become single safe levels under the prefix")
    func topics() {
        let topics = VenueTopics(prefix: "hall-b")
        #expect(topics.espresenseDevice(id: "iBeacon:e2c5-1-2", scanner: "pi/1+#\u{1B}") == "hall-b/espresense/devices/iBeacon:e2c5-1-2/pi_1___")
        #expect(topics.event(.visit, room: "booth 12") == "hall-b/beacontop/events/visit/booth 12")
        #expect(topics.levels(of: "hall-b/beacontop/scanners/x/status") == ["beacontop", "scanners", "x", "status"])
        #expect(topics.levels(of: "other/beacontop/scanners/x/status") == nil)
        #expect(topics.viewSubscriptions == ["hall-b/espresense/devices/+/+", "hall-b/espresense/rooms/+/status", "hall-b/beacontop/scanners/+/+"])
    }
}
