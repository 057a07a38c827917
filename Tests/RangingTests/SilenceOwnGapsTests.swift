import BeaconFormats
import Foundation
import Testing
@testable import Ranging

/// The thirteenth round's two rules for sparse beacons (docs/ranging-history.md): a silence judged
/// against the beacon's own recent gaps (`SilentRankRule.ownGaps`), and the nearest level's
/// stand-in packets no older than `staleAfter` (`NearestMemory.staleAfter`).
@Suite struct SilenceOwnGapsTests {
    static let beacon = ScriptedBeacon.iBeacon(minor: 1)

    static func track(heardAt times: [Double], rssi: (Double) -> Int = { _ in -60 }) -> BeaconTrack {
        var track = BeaconTrack(
            identity: beacon.identity, address: beacon.address, time: times[0], filter: AdaptiveKalmanRSSIFilter(),
            classifier: ProximityClassifier(immediateBelow: 0.5, nearBelow: 3, margin: 0.15, dwell: 1),
            exhibitIndex: nil, measuredPowerOverride: nil, pathLossExponent: 2, regionIndices: [], arrivalHistory: 64
        )
        for time in times {
            track.record(Sighting(time: time, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: rssi(time)), staleAfter: 5)
        }
        return track
    }

    /// Heard every 2 s: 16 gaps of 2 s, none as long as a 3.5-s silence, give (0 + 1/2) / 17 < 5%;
    /// one 4-s gap among them (1 + 1/2) / 17 > 5%; a history of 5 gaps 1/12 > 5%. No silence up to
    /// the 2-s floor counts, however regular the beacon.
    @Test func aSilenceIsJudgedAgainstTheBeaconsOwnGaps() {
        let regular = Self.track(heardAt: Array(stride(from: 0.0, through: 40, by: 2)))
        #expect(regular.isSilentBeyondOwnGaps(at: 43.5, level: 0.05, floor: 2))
        #expect(!regular.isSilentBeyondOwnGaps(at: 42, level: 0.05, floor: 2))
        #expect(!regular.isSilentBeyondOwnGaps(at: 43.5, level: 0.01, floor: 2))
        let oneLongGap = Self.track(heardAt: Array(stride(from: 0.0, through: 20, by: 2)) + Array(stride(from: 24.0, through: 40, by: 2)))
        #expect(!oneLongGap.isSilentBeyondOwnGaps(at: 43.5, level: 0.05, floor: 2))
        #expect(oneLongGap.isSilentBeyondOwnGaps(at: 44.5, level: 0.05, floor: 2))
        let short = Self.track(heardAt: Array(stride(from: 30.0, through: 40, by: 2)))
        #expect(!short.isSilentBeyondOwnGaps(at: 43.5, level: 0.05, floor: 2))
        let dense = Self.track(heardAt: Array(stride(from: 0.0, through: 40, by: 0.1)))
        #expect(!dense.isSilentBeyondOwnGaps(at: 42, level: 0.05, floor: 2))
        #expect(dense.isSilentBeyondOwnGaps(at: 42.01, level: 0.05, floor: 2))
    }

    /// 10 packets/s with 15% of them lost at random, for 10 minutes, looked at every 0.1 s: the
    /// twelfth round's model ranks it down dozens of times (a history with no missed packet makes
    /// one loss decisive), the own gaps never (a silence over the 2-s floor would be 20 losses in a row).
    @Test func aDenseBeaconWithRandomLossIsNeverRankedDown() {
        var noise = SeededNoise(seed: 13)
        var track = Self.track(heardAt: [0])
        var ownGaps = 0, missedPackets = 0
        for step in 1...6000 {
            let time = Double(step) / 10
            if noise.uniform() >= 0.15 {
                track.record(Sighting(time: time, identity: Self.beacon.identity, measuredPower: -59, address: Self.beacon.address, rssi: -60), staleAfter: 5)
            }
            let look = time + 0.05
            if track.isSilentBeyondOwnGaps(at: look, level: 0.05, floor: 2) { ownGaps += 1 }
            if track.isSilentBeyondLikely(at: look, level: 0.01) { missedPackets += 1 }
        }
        #expect(ownGaps == 0)
        #expect(missedPackets > 20, "\(missedPackets)")
    }

    /// Two beacons heard every 2 s, the nearer falls silent at 20 s (10 gaps heard, none long: 1/22
    /// < 5%): at 23 s, 3 s of silence, the heard one leads and is `nearest` under the own-gaps rule;
    /// shipped, the silent one keeps both until stale.
    @Test func theEngineRanksASilentBeaconDownByItsOwnGaps() {
        let near = ScriptedBeacon.iBeacon(minor: 1), far = ScriptedBeacon.iBeacon(minor: 2)
        func sightings(_ beacon: ScriptedBeacon, rssi: Int, until end: Double) -> [Sighting] {
            stride(from: 0.0, to: end, by: 2).map {
                Sighting(time: $0, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: rssi)
            }
        }
        let packets = merged([sightings(near, rssi: -60, until: 21), sightings(far, rssi: -75, until: 40)])
        func snapshot(at time: Double, ownGaps: Bool) -> RangingSnapshot {
            var configuration = RangingConfiguration()
            if ownGaps {
                configuration.silentRankLevel = 0.05
                configuration.silentRankRule = .ownGaps
            }
            var engine = RangingEngine(configuration: configuration)
            return run(packets, engine: &engine, until: time).last!
        }
        #expect(snapshot(at: 22, ownGaps: true).nearest == near.identity)
        let ranked = snapshot(at: 23, ownGaps: true)
        #expect(ranked.nearest == far.identity)
        #expect(ranked.beacons.first?.identity == far.identity)
        #expect(snapshot(at: 23, ownGaps: false).nearest == near.identity)
    }

    /// Heard at 0 and 1 s at -60 dBm, then at 9 s at -80: at 10 s the 2-s window holds one packet,
    /// so three stand in. Until forgotten, the two from before the silence make the median -60;
    /// within `staleAfter` (5 s, its start included) only the packet at 9 s: -80.
    @Test func theStandInPacketsReachBackOnlyStaleAfter() {
        let track = Self.track(heardAt: [0, 1, 9]) { $0 < 5 ? -60 : -80 }
        #expect(track.recentRSSIQuantile(at: 10, window: 2, quantile: 0.5) == -60)
        #expect(track.recentRSSIQuantile(at: 10, window: 2, quantile: 0.5, memory: 5) == -80)
        let early = Self.track(heardAt: [0, 1])
        #expect(early.recentRSSIQuantile(at: 6, window: 2, quantile: 0.5, memory: 5) == -60)
        #expect(early.recentRSSIQuantile(at: 6.5, window: 2, quantile: 0.5, memory: 5) == nil)
        #expect(track.recentRSSIQuantile(at: 14, window: 2, quantile: 0.5, memory: 5) == -80)
        let dense = Self.track(heardAt: Array(stride(from: 0.0, through: 10, by: 0.1))) { $0 < 5 ? -60 : -80 }
        #expect(dense.recentRSSIQuantile(at: 10.05, window: 2, quantile: 0.5, memory: 5)
                == dense.recentRSSIQuantile(at: 10.05, window: 2, quantile: 0.5))
    }

    /// The gaps the rule counts are the advertising interval's: the newest 16, zero gaps skipped.
    @Test func theGapsAreTheNewestSixteen() {
        var ring = ArrivalRing(capacity: 64)
        var times: [Double] = []
        var time = 0.0
        for step in 0..<40 {
            time += step % 7 == 0 ? 0 : Double(step % 5) + 0.5
            ring.append(time: time, rssi: -60)
            times.append(time)
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.suffix(min(times.count - 1, 16)).filter { $0 > 0 }
            for silence in [0.5, 1.5, 3.0, 4.5] {
                let counted = ring.gaps(reaching: silence)
                #expect(counted.gaps == gaps.count)
                #expect(counted.reaching == gaps.filter { $0 >= silence }.count)
            }
        }
    }
}
