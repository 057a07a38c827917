import BeaconFormats
import HCI
import Testing

/// `BeaconIdentity` orders as its printed id does (ties in ranging are broken by id), also on the
/// numeric fast path for iBeacon and AltBeacon ids.
struct IdentityOrderTests {
    @Test func iBeaconAndAltBeaconIdsOrderAsTheirStrings() {
        var generator = SystemRandomNumberGenerator()
        // Few UUIDs and awkward numbers, so equal UUIDs and decimal prefixes (1 vs 10 vs 100) are common.
        let uuids = [UUIDBytes(high: 0, low: 0), UUIDBytes(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E4),
                     UUIDBytes(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E5), UUIDBytes(high: .max, low: .max)]
        let numbers: [UInt16] = [0, 1, 2, 9, 10, 11, 19, 100, 101, 999, 1000, 6553, 65535]
        func random() -> BeaconIdentity {
            let uuid = uuids.randomElement(using: &generator)!
            let major = Bool.random(using: &generator) ? numbers.randomElement(using: &generator)! : UInt16.random(in: 0...UInt16.max, using: &generator)
            let minor = numbers.randomElement(using: &generator)!
            return Bool.random(using: &generator) ? .iBeacon(uuid: uuid, major: major, minor: minor) : .altBeacon(id1: uuid, id2: major, id3: minor)
        }
        for _ in 0..<20_000 {
            let a = random()
            let b = random()
            #expect((a < b) == (a.description < b.description), "\(a) < \(b)")
        }
    }

    @Test func otherKindsOrderByTheirStrings() {
        let url = BeaconIdentity.eddystoneURL("https://example.com")
        let beacon = BeaconIdentity.iBeacon(uuid: UUIDBytes(high: 1, low: 2), major: 3, minor: 4)
        #expect((url < beacon) == (url.description < beacon.description))
        #expect((beacon < url) == (beacon.description < url.description))
        #expect(BeaconIdentity.eddystoneEID([1, 2, 3, 4, 5, 6, 7, 8]) < .eddystoneEID([1, 2, 3, 4, 5, 6, 7, 9]))
    }
}
