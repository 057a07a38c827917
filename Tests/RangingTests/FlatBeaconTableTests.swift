import BeaconFormats
import Testing
@testable import Ranging

@Suite struct FlatBeaconTableTests {
    /// Random inserts, updates and removals agree with a Dictionary at every step (backward-shift
    /// deletion is the subtle part), across growth.
    @Test func agreesWithADictionary() throws {
        var noise = SeededNoise(seed: 41)
        var table = FlatBeaconTable(capacity: 4)
        var model: [FlatBeaconKey: Int] = [:]
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        let keys = try (0..<300).map { minor in
            try #require(FlatBeaconKey(.iBeacon(uuid: uuid, major: UInt16(minor % 7), minor: UInt16(minor))))
        }
        for step in 0..<20_000 {
            let key = keys[Int(noise.next() % UInt64(keys.count))]
            if noise.uniform() < 0.4 {
                table[key] = nil
                model[key] = nil
            } else {
                table[key] = step
                model[key] = step
            }
            if step % 97 == 0 {
                for probe in keys { #expect(table[probe] == model[probe]) }
                #expect(table.count == model.count)
            }
        }
        #expect(FlatBeaconKey(.eddystoneURL("https://example.com")) == nil)
        #expect(FlatBeaconKey(.iBeacon(uuid: uuid, major: 1, minor: 2)) != FlatBeaconKey(.altBeacon(id1: uuid, id2: 1, id3: 2)))
    }
}
