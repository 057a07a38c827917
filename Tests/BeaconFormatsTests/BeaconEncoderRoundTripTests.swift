import HCI
import TestFixtures
import Testing
@testable import BeaconFormats

/// What the encoders write (for `beacontop advertise` and the simulator) decodes to the same frame
/// and fits a legacy advertisement.
@Suite struct BeaconEncoderRoundTripTests {
    static func roundTrip(_ frame: BeaconFrame, _ data: [UInt8]) throws {
        #expect(data.count <= 31)
        try ADStructures.validate(data[...])
        #expect(BeaconDecoder.decode(data[...]) == frame)
    }

    @Test func altBeacon() throws {
        let frame = AltBeaconFrame(company: 0x0118, beaconID: Array(1...20), referenceRSSI: -59, reserved: 9)
        #expect(frame.advertisingData.count == 31)
        try Self.roundTrip(.altBeacon(frame), frame.advertisingData)
    }

    @Test func iBeacon() throws {
        let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1, measuredPower: -59)
        try Self.roundTrip(.iBeacon(frame), frame.advertisingData)
    }

    /// The exact bytes, not only a round trip (which a bug shared by encoder and decoder would pass):
    /// flags, then Apple's manufacturer record 4C 00, type 02, length 15, UUID, major and minor
    /// big-endian, measured power as a signed byte.
    @Test func iBeaconBytesAreApplesLayout() {
        let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1, measuredPower: -59)
        #expect(frame.advertisingData == SharedData.bytes(hex: "020106 1AFF4C000215 E2C56DB5DFFB48D2B060D0F5A71096E4 0064 0001 C5"))
    }

    @Test func eddystoneUID() throws {
        let frame = EddystoneUIDFrame(txPowerAt0m: -20, namespace: Array(0..<10), instance: Array(10..<16))
        #expect(frame.advertisingData.count == 31)
        try Self.roundTrip(.eddystoneUID(frame), frame.advertisingData)
    }

    @Test(arguments: ["https://github.com/citruz", "http://www.example.org", "https://goo.gl/S6zT6P", "http://a%1Bb.gov/", "https://abcdefghijklmnop.com"])
    func eddystoneURL(url: String) throws {
        let frame = EddystoneURLFrame(txPowerAt0m: -18, url: url)
        try Self.roundTrip(.eddystoneURL(frame), try frame.advertisingData())
    }

    @Test func eddystoneURLTooLongThrows() {
        #expect(throws: EddystoneURLEncodingError.self) { try EddystoneURLFrame(txPowerAt0m: 0, url: "https://www.example-museum.org/exhibits/1").advertisingData() }
    }

    @Test func eddystoneEIDAndTLM() throws {
        let eid = EddystoneEIDFrame(txPowerAt0m: -10, ephemeralID: Array(1...8))
        try Self.roundTrip(.eddystoneEID(eid), eid.advertisingData)
        let plain = EddystoneTLMFrame(version: 0, payload: .plain(batteryMillivolts: 3000, temperatureCelsius: -12.25, advertisingCount: 123_456, uptimeTenths: 9_999_999))
        try Self.roundTrip(.eddystoneTLM(plain), plain.advertisingData)
        let encrypted = EddystoneTLMFrame(version: 1, payload: .encrypted(data: Array(20..<32), salt: 0xBEEF, integrityCheck: 0x1234))
        try Self.roundTrip(.eddystoneTLM(encrypted), encrypted.advertisingData)
    }
}
