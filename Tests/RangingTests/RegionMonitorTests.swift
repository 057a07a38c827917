import BeaconFormats
import Testing
@testable import Ranging

@Suite struct RegionMonitorTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!

    @Test func regionsMatchAsCoreLocationDefinesThem() {
        let beacon = BeaconIdentity.iBeacon(uuid: Self.uuid, major: 7, minor: 3)
        #expect(BeaconRegion(uuid: Self.uuid).contains(beacon))
        #expect(BeaconRegion(uuid: Self.uuid, major: 7).contains(beacon))
        #expect(!BeaconRegion(uuid: Self.uuid, major: 8).contains(beacon))
        #expect(BeaconRegion(uuid: Self.uuid, major: 7, minor: 3).contains(beacon))
        #expect(!BeaconRegion(uuid: Self.uuid, major: 7, minor: 4).contains(beacon))
        #expect(!BeaconRegion(uuid: UUIDBytes(high: 1, low: 2)).contains(beacon))
        #expect(BeaconRegion(uuid: Self.uuid).contains(.altBeacon(id1: Self.uuid, id2: 1, id3: 2)))
        #expect(!BeaconRegion(uuid: Self.uuid).contains(.eddystoneURL("https://example.com")))
        #expect(BeaconRegion(uuid: Self.uuid, minor: 5).minor == nil, "a minor needs a major")
        #expect(BeaconRegion(spec: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:7") == BeaconRegion(uuid: Self.uuid, major: 7))
        #expect(BeaconRegion(spec: "E2C56DB5:7") == nil)
        #expect(BeaconRegion(spec: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:70000") == nil)
    }

    /// Enter on the first packet; a short silence is no exit; exit only after the delay.
    @Test func exitWaitsForTheDelay() {
        let beacon = ScriptedBeacon.iBeacon(minor: 1)
        let region = BeaconRegion(name: "Hall", uuid: Self.uuid, major: 1)
        var configuration = RangingConfiguration()
        configuration.regionExitDelay = 10
        var engine = RangingEngine(configuration: configuration, regions: [region, BeaconRegion(uuid: Self.uuid, major: 2)])
        var events: [(Double, RegionEvent.Kind)] = []
        let heard = Set([0, 1, 2, 3, 8, 9])  // a 4 s gap, then silence from 10 s
        for second in 0..<40 {
            if heard.contains(second) {
                engine.record(Sighting(time: Double(second) + 0.5, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: -60))
            }
            let snapshot = engine.tick(at: Double(second + 1))
            for event in snapshot.events {
                #expect(event.region == region)
                events.append((event.time, event.kind))
            }
        }
        #expect(events.map(\.1) == [.enter, .exit])
        #expect(events.first?.0 == 1)
        #expect(events.last?.0 == 20, "last heard at 9.5 s, exit delay 10 s: first tick after 19.5 s")
    }
}
