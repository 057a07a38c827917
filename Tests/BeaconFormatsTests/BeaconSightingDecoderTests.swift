import HCI
import TestFixtures
import Testing
@testable import BeaconFormats

/// The one sighting decoder (HCI packet -> sightings) that every source and command shares.
@Suite struct BeaconSightingDecoderTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!

    static func packet(rssi: Int8?, data: [UInt8], at time: Double = 5) -> HCIPacket {
        let advert = Advertisement(
            timestamp: time, address: BDAddress(rawValue: 0xA1), addressType: .publicDevice,
            eventKind: .advNonconnInd, rssi: rssi, data: data[...]
        )
        return AdvertisingReportEncoder.legacyReportPacket([advert], at: time)
    }

    @Test func malformedPacketsThrowAndHostToControllerPacketsAreNoSightings() {
        var decoder = BeaconSightingDecoder()
        // LE Meta event, Advertising Report with one report but no room for it.
        let broken = HCIPacket(timestamp: 1, direction: .controllerToHost, type: .event, payload: [0x3E, 0x0C, 0x02, 0x01, 0x00][...])
        #expect(throws: DecodeError.self) { try decoder.decode(broken) { _ in } }
        // A phone's own advertising data in an Android log is not a received beacon.
        var own = Self.packet(rssi: -40, data: IBeaconFrame(uuid: Self.uuid, major: 1, minor: 3, measuredPower: -59).advertisingData)
        own.direction = .hostToController
        var count = 0
        try? decoder.decode(own) { _ in count += 1 }
        #expect(count == 0)
    }

    /// Both entry points see the same sightings; the monitor's also gets the advertising data and
    /// the number of advertisements, beacons or not.
    @Test func everyFrameOfAnAdvertisementIsDeliveredWithItsData() throws {
        // An Eddystone-URL (http://a.com) and a plain TLM in one advertisement's service data.
        let url: [UInt8] = [0x08, 0x16, 0xAA, 0xFE, 0x10, 0xEB, 0x02, 0x61, 0x07]
        let tlm: [UInt8] = [0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00, 0x0B, 0xB8, 0x14, 0x00,
                            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0A]
        let both = Self.packet(rssi: -61, data: url + tlm)
        var decoder = BeaconSightingDecoder()
        var plain: [BeaconSighting] = []
        try decoder.decode(both) { plain.append($0) }
        var withData: [(BeaconSighting, [UInt8])] = []
        let advertisements = try decoder.decode(both, withData: { withData.append(($0, Array($1))) })
        #expect(plain.map(\.frame.kind) == [.eddystoneURL, .eddystoneTLM])
        #expect(withData.map(\.0) == plain)
        #expect(withData.allSatisfy { $0.1 == url + tlm })
        #expect(advertisements == 1)
        #expect(plain.map(\.isRangeable) == [true, false], "telemetry names no beacon")
        let beacon = IBeaconFrame(uuid: Self.uuid, major: 1, minor: 2, measuredPower: -59).advertisingData
        let silent = Self.packet(rssi: nil, data: beacon)
        var noRSSI: [BeaconSighting] = []
        try decoder.decode(silent) { noRSSI.append($0) }
        #expect(noRSSI.count == 1 && !noRSSI[0].isRangeable, "no RSSI, no distance")
    }
}
