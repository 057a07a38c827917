import BeaconFormats
import Foundation
import Testing
@testable import Ranging

/// The fourteenth round's movement cue (`MovementCue`; docs/ranging-history.md): the statistic,
/// and the engine's rules that rank a silent beacon's level down only when the heard beacons moved.
@Suite struct MovementCueTests {
    /// The χ² tail against the published 1% and 5% points (Abramowitz and Stegun, table 26.8).
    @Test(arguments: [(1, 6.635, 0.01), (2, 9.210, 0.01), (3, 11.345, 0.01), (4, 13.277, 0.01), (5, 15.086, 0.01),
                      (1, 3.841, 0.05), (2, 5.991, 0.05), (3, 7.815, 0.05), (4, 9.488, 0.05), (7, 14.067, 0.05)])
    func theChiSquareTailMatchesTheTable(degrees: Int, point: Double, tail: Double) {
        #expect(abs(MovementCue.chiSquareTail(point, degreesOfFreedom: degrees) - tail) < tail * 0.002)
    }

    /// Beacons that all shift alike (a turn of the phone) give Q = 0 whatever the shift; one
    /// rising and one falling give Q far beyond 1%; one beacon alone never fires Q, but the NIS.
    @Test func qCountsOnlyChangesApart() {
        var alike = MovementCue()
        for _ in 0..<3 { alike.add(change: -12, variance: 20) }
        #expect(alike.heterogeneity < 1e-9)
        #expect(alike.tailProbability == 1)
        #expect(alike.magnitudeTailProbability! < 0.01)
        var apart = MovementCue()
        apart.add(change: 18, variance: 20)
        apart.add(change: -5, variance: 20)
        #expect(abs(apart.heterogeneity - 23 * 23 / 40) < 1e-9)
        #expect(apart.tailProbability! < 0.01)
        var alone = MovementCue()
        alone.add(change: 20, variance: 20)
        #expect(alone.tailProbability == nil)
        #expect(alone.magnitudeTailProbability! < 0.01)
    }

    /// The change is the mean of the packets since the tick against the mean of the window before
    /// it (or the last 3), none older than `oldest`.
    @Test func theChangeIsAMeanAgainstTheWindowBefore() {
        var ring = ArrivalRing(capacity: 64)
        for (time, rssi) in [(0.0, -90), (1.0, -70), (2.0, -72), (3.0, -74), (4.5, -60), (4.8, -62)] { ring.append(time: time, rssi: rssi) }
        let change = ring.change(newest: 2, since: 4, window: 2, minimumCount: 3, oldest: 0.5)
        #expect(change?.new == 2 && change?.reference == 3)
        #expect(change.map { abs($0.change - (-61 + 72)) < 1e-9 } == true)
        #expect(ring.change(newest: 0, since: 4, window: 2, minimumCount: 3, oldest: 0.5) == nil)
    }

    /// Three beacons heard every 2 s; the nearest (-60) falls silent at 20 s. In the "moved" script
    /// the two heard ones then change apart (-80 -> -62, -90 -> -95): at 23 s, 3 s of silence, the
    /// cue fires and the silent one is out of the running until heard again (it does not take the
    /// title back at 25 s on its old packets). In the "stood" script they stay as they were: the
    /// silent beacon keeps `nearest` as shipped, under both rules. Shipped, it keeps it either way.
    @Test(arguments: [SilentRankRule.movedApart, .changed])
    func aSilentBeaconIsRankedDownOnlyWhenTheHeardOnesMoved(rule: SilentRankRule) {
        let silent = ScriptedBeacon.iBeacon(minor: 1), rising = ScriptedBeacon.iBeacon(minor: 2), falling = ScriptedBeacon.iBeacon(minor: 3)
        func sightings(_ beacon: ScriptedBeacon, from start: Double, until end: Double, rssi: (Double) -> Int) -> [Sighting] {
            stride(from: start, to: end, by: 2).map {
                Sighting(time: $0, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: rssi($0))
            }
        }
        func nearest(moved: Bool, rule: SilentRankRule?) -> [BeaconIdentity?] {
            let packets = merged([
                sightings(silent, from: 0, until: 21) { _ in -60 },
                sightings(rising, from: 0.5, until: 40) { moved && $0 > 22 ? -62 : -80 },
                sightings(falling, from: 0.5, until: 40) { moved && $0 > 22 ? -95 : -90 },
            ])
            var configuration = RangingConfiguration()
            if let rule {
                configuration.silentRankLevel = 0.01
                configuration.silentRankRule = rule
            }
            var engine = RangingEngine(configuration: configuration)
            return run(packets, engine: &engine, until: 25).map(\.nearest)
        }
        let moved = nearest(moved: true, rule: rule)
        #expect(moved[21] == silent.identity)  // 22 s: 2 s of silence, within the window
        #expect(moved[22] == rising.identity)
        #expect(moved[24] == rising.identity)
        #expect(nearest(moved: false, rule: rule)[22...24].allSatisfy { $0 == silent.identity })
        #expect(nearest(moved: true, rule: nil)[22...24].allSatisfy { $0 == silent.identity })
    }
}
