import HCI
import TestFixtures
import Testing
@testable import BeaconFormats

/// Real Android HCI logs through both decoders give exactly the iBeacon frames and identities that
/// Wireshark's tshark finds (shared/data/README.md).
@Suite struct RealCaptureTests {
    static func identities(in capture: String) throws -> [String: Int] {
        var decoder = AdvertisingReportDecoder()
        var counts: [String: Int] = [:]
        for packet in try CapturedEvents.leMetaEvents(in: capture) {
            try decoder.decode(packet) { ad in
                BeaconDecoder.forEachFrame(in: ad.data) { frame in
                    guard case .iBeacon(let beacon) = frame else { return }
                    counts["\(BeaconIdentity(frame: frame, address: ad.address)) \(beacon.measuredPower)", default: 0] += 1
                }
            }
        }
        return counts
    }

    @Test func goveeH5100() throws {
        let uuid = "494E5445-4C4C-495F-524F-434B535F4857"
        #expect(try Self.identities(in: "govee-h5100.btsnoop") == [
            "\(uuid):20596:3932 -62": 8, "\(uuid):20596:25984 -62": 17, "\(uuid):20596:32020 -62": 14,
            "\(uuid):20596:39576 -62": 13, "\(uuid):20597:62207 12": 10, "\(uuid):20597:62207 -62": 29,
            "\(uuid):20855:62207 -62": 8,
        ])
    }

    @Test func goveeH5075AndH5074() throws {
        #expect(try Self.identities(in: "govee-h5075-h5074.btsnoop") == [
            "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:212:0 3": 2, "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:4382:0 3": 3,
            "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:4383:0 3": 1, "2686F39C-BADA-4658-854A-A62E7E5E8B8D:1:0 -55": 6,
            "494E5445-4C4C-495F-524F-434B535F4857:20596:3932 -62": 2, "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 -62": 7,
        ])
    }

    @Test func horizon74AndTheOthers() throws {
        #expect(try Self.identities(in: "horizon74.btsnoop") == [
            "494E5445-4C4C-495F-524F-434B535F4857:20594:62207 -62": 10, "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 -62": 1,
        ])
        let misc = try Self.identities(in: "govee-misc.btsnoop")
        #expect(misc.values.reduce(0, +) == 5 && Set(misc.keys.map { $0.split(separator: " ")[0] }).count == 3)
        #expect(try Self.identities(in: "extcap-no-beacons.btsnoop").isEmpty)
    }
}
