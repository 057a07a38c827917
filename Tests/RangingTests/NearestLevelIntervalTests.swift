import BeaconFormats
import Foundation
import Testing
@testable import Ranging

/// The fifteenth round's candidate A (docs/ranging-history.md): the nearest level's stand-ins in
/// time, not packets (`NearestMemory.oneInterval`): the packets of the last max(nearest window,
/// advertising interval), at least the newest.
@Suite struct NearestLevelIntervalTests {
    static func configuration(_ memory: NearestMemory) -> RangingConfiguration {
        var configuration = RangingConfiguration()
        configuration.nearestMemory = memory
        return configuration
    }

    /// The level the engine compares under `memory` (the default's, or A's).
    static func level(_ track: BeaconTrack, at time: Double, _ memory: NearestMemory) -> Double? {
        let configuration = configuration(memory)
        return track.recentRSSIQuantile(
            at: time, window: configuration.nearestWindow, quantile: configuration.nearestQuantile, overInterval: memory == .oneInterval
        )
    }

    /// Heard every 2 s at -60 dBm, then at -80 from 6 s: at 6.5 s the 2-s window holds the one
    /// packet at 6 s. The default's three stand-ins (2, 4, 6 s) keep the median at -60 until two
    /// new packets came; under A the level is the window's packet, -80, at once.
    @Test func aSparseBeaconsLevelIsItsLatestEvidence() {
        let track = SilenceOwnGapsTests.track(heardAt: [0, 2, 4, 6]) { $0 < 5 ? -60 : -80 }
        #expect(Self.level(track, at: 6.5, .untilForgotten) == -60)
        #expect(Self.level(track, at: 6.5, .oneInterval) == -80)
        // Silent in the window (7 s after 4.5 s of silence): the newest packet alone, as the
        // default's three would be 2, 4, 6 s.
        #expect(Self.level(track, at: 8.5, .oneInterval) == -80)
        #expect(Self.level(track, at: 8.5, .untilForgotten) == -60)
    }

    /// Heard every 4 s at -60 dBm, then at 11 s (-70) and 12 s (-80): its interval is still 4 s
    /// (the median gap of 4, 4, 3, 1), so at 14.5 s the window reaches back to 10.5 s and holds
    /// both new packets, median -75; the 2-s window holds neither (the newest alone would be
    /// -80), and the default's three stand-ins (8, 11, 12 s) give -70.
    @Test func aLongerIntervalStretchesTheWindow() {
        let track = SilenceOwnGapsTests.track(heardAt: [0, 4, 8, 11, 12]) { $0 < 10 ? -60 : $0 < 11.5 ? -70 : -80 }
        #expect(track.advertisingInterval == 4)
        #expect(Self.level(track, at: 14.5, .oneInterval) == -75)
        #expect(Self.level(track, at: 14.5, .untilForgotten) == -70)
    }

    /// A beacon with 3 or more packets in the window (every dense one) has the default's level.
    @Test func aDenseBeaconIsUnchanged() {
        let dense = SilenceOwnGapsTests.track(heardAt: Array(stride(from: 0.0, through: 10, by: 0.1))) { -60 - Int($0 * 3) % 17 }
        for look in stride(from: 2.05, through: 10.05, by: 0.5) {
            #expect(Self.level(dense, at: look, .oneInterval)
                    == Self.level(dense, at: look, .untilForgotten))
        }
    }

    /// Two beacons heard every 2 s swap at 20 s (-60 and -75 dBm): under A the new one leads from
    /// the tick after its first reading and is `nearest` at 22 s; by default its median of three
    /// needs a second reading, so the old one holds until 24 s.
    @Test func theHandOverComesARowSooner() {
        let old = ScriptedBeacon.iBeacon(minor: 1), new = ScriptedBeacon.iBeacon(minor: 2)
        func sightings(_ beacon: ScriptedBeacon, before: Int, after: Int) -> [Sighting] {
            stride(from: 0.0, to: 30, by: 2).map {
                Sighting(time: $0, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: $0 < 20 ? before : after)
            }
        }
        let packets = merged([sightings(old, before: -60, after: -75), sightings(new, before: -75, after: -60)])
        func nearest(at time: Double, _ memory: NearestMemory) -> BeaconIdentity? {
            var engine = RangingEngine(configuration: Self.configuration(memory))
            return run(packets, engine: &engine, until: time).last?.nearest
        }
        #expect(nearest(at: 21, .oneInterval) == old.identity)
        #expect(nearest(at: 22, .oneInterval) == new.identity)
        #expect(nearest(at: 23, .untilForgotten) == old.identity)
        #expect(nearest(at: 24, .untilForgotten) == new.identity)
    }
}
