import BeaconFormats
import HCI
import Monitor
import Ranging
import Survey
import Testing

/// The monitor's memory is bounded by what the engine tracks, not by how many distinct beacons are
/// heard (issue 12 item 8: 50,000 distinct beacons at 20 Hz once took 510 MB).
@Suite struct MonitorFeedBoundTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!

    static func packet(beacon: Int, rssi: Int8 = -60, at time: Double) -> HCIPacket {
        let frame = IBeaconFrame(uuid: uuid, major: UInt16(beacon / 1000), minor: UInt16(beacon % 1000), measuredPower: -59)
        let advertisement = Advertisement(
            timestamp: time, address: BDAddress(rawValue: 0xC0_00_00_00_00_00 | UInt64(beacon)), addressType: .randomDevice,
            eventKind: .advNonconnInd, rssi: rssi, data: frame.advertisingData[...]
        )
        return AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time)
    }

    static func feed(cap: Int) -> MonitorFeed {
        var configuration = RangingConfiguration()
        configuration.maxBeacons = cap
        return MonitorFeed(configuration: configuration, status: SourceStatus(name: "flood"))
    }

    @Test func extrasNeverOutnumberTheEnginesCapAndEvictionsAreCounted() {
        var feed = Self.feed(cap: 64)
        var most = 0
        for beacon in 0..<5000 {
            feed.feed(Self.packet(beacon: beacon, at: 100 + Double(beacon) / 1000))
            most = max(most, feed.beaconsWithExtras)
        }
        #expect(most == 64, "extras follow the engine: at most its cap, whatever the flood")
        #expect(feed.engine.trackedBeacons == 64)
        let snapshot = feed.snapshot(at: 105)
        #expect(snapshot.rows.count == 64)
        #expect(snapshot.source.evictedBeacons == 5000 - 64)
        #expect(feed.beaconsWithExtras == 64)
    }

    /// Health and duplicates keep their own caps (1,024 transmitters, 1,024 identities), so a flood
    /// of distinct beacons does not grow them either, and their report stays that size.
    @Test func healthAndDuplicatesStayWithinTheirCapsUnderAFlood() {
        var feed = Self.feed(cap: 64)
        for beacon in 0..<5000 {
            feed.feed(Self.packet(beacon: beacon, at: 100 + Double(beacon) / 1000))
        }
        let limits = (HealthConfiguration().maxTransmitters, DuplicateConfiguration().maxIdentities)
        #expect(feed.watch.health.transmitterCount == limits.0)
        #expect(feed.watch.health.evicted == 5000 - limits.0)
        #expect(feed.watch.duplicates.identityCount == limits.1)
        #expect(feed.snapshot(at: 105).health.transmitters.count == limits.0)
    }

    /// A beacon evicted between its own packets starts over each time: its rate is not known (a dash
    /// on screen), never the 1.0 packets/s one packet over a second would claim.
    @Test func aBeaconUnderEvictionChurnShowsNoRateRatherThanAWrongOne() {
        var churned = Self.feed(cap: 16)
        var calm = Self.feed(cap: 16)
        var flood = 1
        for step in 0..<100 {
            let time = 100 + Double(step) / 20
            // Twenty new beacons between two packets of beacon 0: more than the engine tracks.
            for _ in 0..<20 {
                churned.feed(Self.packet(beacon: flood, at: time - 0.001))
                flood += 1
            }
            churned.feed(Self.packet(beacon: 0, at: time))
            calm.feed(Self.packet(beacon: 0, at: time))
        }
        let end = 100 + 99.0 / 20
        let target = BeaconIdentity.iBeacon(uuid: Self.uuid, major: 0, minor: 0)
        let underChurn = churned.snapshot(at: end).rows.first { $0.identity == target }
        #expect(underChurn != nil && underChurn?.packetsPerSecond == nil, "rate under churn: \(String(describing: underChurn?.packetsPerSecond))")
        let steady = calm.snapshot(at: end).rows.first { $0.identity == target }
        #expect(abs((steady?.packetsPerSecond ?? 0) - 20) < 1, "rate heard steadily: \(String(describing: steady?.packetsPerSecond))")
    }
}
