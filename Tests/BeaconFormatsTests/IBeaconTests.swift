import Testing
import TestFixtures
@testable import BeaconFormats

@Suite struct IBeaconTests {
    @Test func decodesAppleManufacturerData() throws {
        let data = SharedData.bytes(hex: "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e400640001c5")
        let frame = try #require(BeaconDecoder.decode(data[...]))
        guard case .iBeacon(let beacon) = frame else { Issue.record("not an iBeacon: \(frame)"); return }
        #expect(beacon.uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")
        #expect(beacon.major == 100 && beacon.minor == 1 && beacon.measuredPower == -59)
        #expect(BeaconIdentity(frame: frame, address: .init(rawValue: 0)).description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1")
    }
}
