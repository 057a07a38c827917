import HCI
import Testing
import TestFixtures
@testable import BeaconFormats

@Suite struct EddystoneTests {
    static func serviceData(_ frameHex: String) -> [UInt8] {
        let frame = SharedData.bytes(hex: frameHex)
        return [UInt8(frame.count + 3), 0x16, 0xAA, 0xFE] + frame
    }

    @Test func uidWithoutTheRFUBytesIsAccepted() throws {
        let ad = Self.serviceData("00e3 12345678901234678901 000000000001")
        let frame = try #require(BeaconDecoder.decode(ad[...]))
        #expect(BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0)).description == "12345678901234678901:000000000001")
        #expect(frame.measuredPower == -29 - 41)
    }

    @Test func framesCutShortAreNoBeacon() {
        for hex in ["00e3 123456789012346789 0000000000", "30e3 4549445f746573", "2000 0b18 1300 0000146700002a", "2001 4141", "10", "20"] {
            let ad = Self.serviceData(hex)
            #expect(BeaconDecoder.decode(ad[...]) == nil, "\(hex)")
        }
    }

    @Test func otherFrameTypesAndVersionsAreNotEddystone() {
        for hex in ["40 e3 0102030405060708", "50 00 00", "01 e3 12345678901234678901000000000001", "2002 0b18 1300 00001467 00002ac4", "10 e8 04 6162"] {
            let ad = Self.serviceData(hex)
            #expect(BeaconDecoder.decode(ad[...]) == nil, "\(hex)")
        }
    }

    @Test func aaFeBytesOutsideFEAAServiceDataAreNotEddystone() {
        // Manufacturer data whose value starts with aa fe 00 ..., and 0xFEAA in a UUID list alone.
        let manufacturer: [UInt8] = [0x15, 0xFF, 0xAA, 0xFE, 0x00, 0xE3] + [UInt8](repeating: 1, count: 16)
        let listOnly: [UInt8] = [0x03, 0x03, 0xAA, 0xFE]
        #expect(BeaconDecoder.decode(manufacturer[...]) == nil)
        #expect(BeaconDecoder.decode(listOnly[...]) == nil)
    }

    @Test func tlmTemperatureNotSupportedIsNil() throws {
        let ad = Self.serviceData("2000 0b18 8000 00001467 00002ac4")
        let frame = try #require(BeaconDecoder.decode(ad[...]))
        #expect(frame == .eddystoneTLM(EddystoneTLMFrame(version: 0, payload: .plain(batteryMillivolts: 2840, temperatureCelsius: nil, advertisingCount: 5223, uptimeTenths: 10948))))
        #expect(BeaconIdentity(frame: frame, address: BDAddress("AA:BB:CC:DD:EE:FF")!).description == "tlm:AA:BB:CC:DD:EE:FF")
    }

    @Test func negativeTLMTemperatureIsSigned() throws {
        let ad = Self.serviceData("2000 0b18 ff80 00000001 00000002")
        guard case .eddystoneTLM(let tlm) = try #require(BeaconDecoder.decode(ad[...])),
              case .plain(_, let temperature, _, _) = tlm.payload else { Issue.record("not a plain TLM"); return }
        #expect(temperature == -0.5)
    }

    @Test func eidIdentityIsPrefixedHex() throws {
        let ad = Self.serviceData("30 f0 0102030405060708")
        let frame = try #require(BeaconDecoder.decode(ad[...]))
        #expect(BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0)).description == "eid:0102030405060708")
        #expect(frame.measuredPower == -16 - 41)
    }

    @Test func everySchemeAndExpansionDecodes() throws {
        let schemes = ["http://www.", "https://www.", "http://", "https://"]
        let endings = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
        for (schemeCode, scheme) in schemes.enumerated() {
            for (code, ending) in endings.enumerated() {
                let ad = Self.serviceData(String(format: "10 00 %02x 61 %02x 62", schemeCode, code))
                let frame = try #require(BeaconDecoder.decode(ad[...]))
                #expect(frame == .eddystoneURL(EddystoneURLFrame(txPowerAt0m: 0, url: "\(scheme)a\(ending)b")))
            }
        }
    }

    /// Decision: bytes the spec reserves are percent-escaped, so a URL from the air is always
    /// printable ASCII: an ESC sequence cannot reach the terminal.
    @Test func reservedURLBytesArePercentEscaped() throws {
        let ad = Self.serviceData("10 00 02 1b5b324a 20 7f ff 25")
        guard case .eddystoneURL(let frame) = try #require(BeaconDecoder.decode(ad[...])) else { Issue.record("not a URL"); return }
        #expect(frame.url == "http://%1B[2J%20%7F%FF%")
        #expect(frame.url.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F })
        // Encoding undoes exactly those escapes, giving back the bytes sent.
        #expect(try EddystoneURLCodec.encode(frame.url) == SharedData.bytes(hex: "02 1b5b324a 20 7f ff 25"))
    }

    @Test func urlLongerThanSeventeenBytesIsNotEddystone() {
        let ad = Self.serviceData("10 00 02" + String(repeating: "61", count: 18))
        #expect(BeaconDecoder.decode(ad[...]) == nil)
        let fits = Self.serviceData("10 00 02" + String(repeating: "61", count: 17))
        #expect(BeaconDecoder.decode(fits[...]) == .eddystoneURL(EddystoneURLFrame(txPowerAt0m: 0, url: "http://" + String(repeating: "a", count: 17))))
    }

    @Test func urlEncodingCompressesSchemeAndEndings() throws {
        #expect(try EddystoneURLCodec.encode("https://github.com/citruz") == SharedData.bytes(hex: "03 676974687562 00 63697472757a"))
        #expect(try EddystoneURLCodec.encode("http://www.example.org") == [0x00] + Array("example".utf8) + [0x08])
        #expect(try EddystoneURLCodec.encode("HTTPS://goo.gl/S6zT6P") == [0x03] + Array("goo.gl/S6zT6P".utf8))
        #expect(try EddystoneURLCodec.encode("https://a.info/x") == [0x03, 0x61, 0x04, 0x78])
    }

    @Test func unencodableURLsThrow() throws {
        #expect(throws: EddystoneURLEncodingError.unsupportedScheme) { try EddystoneURLCodec.encode("ftp://example.com") }
        #expect(throws: EddystoneURLEncodingError.unencodableCharacter(offset: 8)) { try EddystoneURLCodec.encode("https://é.com") }
        #expect(throws: EddystoneURLEncodingError.unencodableCharacter(offset: 9)) { try EddystoneURLCodec.encode("https://a b.com") }
        #expect(throws: EddystoneURLEncodingError.tooLong(encodedLength: 18)) { try EddystoneURLCodec.encode("https://abcdefghijklmnopq.com") }
        #expect(try EddystoneURLCodec.encode("https://abcdefghijklmnop.com").count == 18, "17 bytes plus the scheme fit")
    }
}
