import HCI
import Testing
import TestFixtures
@testable import BeaconFormats

@Suite struct AltBeaconTests {
    static let body = "2f234454cf6d4a0fadf2f4911ba9ffa600010002c5"

    @Test func anyCompanyWithBeaconCodeDecodes() throws {
        let ad = SharedData.bytes(hex: "1bff 3412 beac " + Self.body + "7f")
        let frame = try #require(BeaconDecoder.decode(ad[...]))
        guard case .altBeacon(let beacon) = frame else { Issue.record("not AltBeacon"); return }
        #expect(beacon.company == 0x1234 && beacon.reserved == 0x7F && beacon.referenceRSSI == -59)
        #expect(BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0)).description == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:2")
        #expect(frame.measuredPower == -59)
    }

    @Test func theByteAfterAShortStructureIsNotRead() throws {
        // Length 0x1A: no reserved byte. The next structure's 0x77 must not become `reserved`.
        let ad = SharedData.bytes(hex: "1aff 1801 beac " + Self.body + "02 0a 77")
        guard case .altBeacon(let beacon) = try #require(BeaconDecoder.decode(ad[...])) else { Issue.record("not AltBeacon"); return }
        #expect(beacon.reserved == 0)
    }

    @Test func wrongCodeOrShortIdIsNoBeacon() {
        let wrongCode = SharedData.bytes(hex: "1bff 1801 beab " + Self.body + "00")
        let short = SharedData.bytes(hex: "19ff 1801 beac " + Self.body.dropLast(2))
        #expect(BeaconDecoder.decode(wrongCode[...]) == nil)
        #expect(BeaconDecoder.decode(short[...]) == nil)
    }

    @Test func appleIBeaconIsNotTakenForAltBeacon() throws {
        let ad = SharedData.bytes(hex: "1aff4c000215426c7565436861726d426561636f6e730efe1355c5")
        #expect(try #require(BeaconDecoder.decode(ad[...])).kind == .iBeacon)
    }

    @Test func allFramesOfOneAdvertisementAreListed() {
        // The bluecharm note: an iBeacon and an Eddystone-TLM in the same advertisement.
        let ad = SharedData.bytes(hex: "1aff4c000215426c7565436861726d426561636f6e730efe1355c5 1116aafe 20000bfe1c000000070800003e7c")
        var kinds: [BeaconKind] = []
        BeaconDecoder.forEachFrame(in: ad[...]) { kinds.append($0.kind) }
        #expect(kinds == [.iBeacon, .eddystoneTLM])
    }
}
