import Foundation
import BeaconFormats
import HCI
import Testing
@testable import Ranging

/// The nearest-exhibit switch rule on its own (`NearestExhibitSelector`): leads in dB summed over
/// time against a threshold, and the window median it is fed (`BeaconTrack.recentRSSIQuantile`).
@Suite struct NearestEvidenceTests {
    static let a = ScriptedBeacon.iBeacon(minor: 1).identity
    static let b = ScriptedBeacon.iBeacon(minor: 2).identity
    static let c = ScriptedBeacon.iBeacon(minor: 3).identity

    /// Feeds `levels(t)` every second from t = 0 through `until`; returns the holder at each second.
    static func feed(_ selector: inout NearestExhibitSelector, until: Int, floor: Double = -.infinity,
                    _ levels: (Int) -> [(BeaconIdentity, Double)]) -> [BeaconIdentity?] {
        (0...until).map { t in
            selector.update(candidates: levels(t).map { .init(key: $0.0, level: $0.1) }, at: Double(t), floor: floor)
        }
    }

    @Test func aStrongLeadHandsOverWithinTwoSeconds() {
        var selector = NearestExhibitSelector()
        // a holds from t = 0; from t = 10 b leads by 8 dB (the visitor arrived at b).
        let held = Self.feed(&selector, until: 14) { t in [(Self.a, 0), (Self.b, t < 10 ? -6 : 8)] }
        #expect(held[9] == Self.a)
        // Each second adds min(8 - 1, 4) = 4 dB·s (the clip): 8 >= 6 at the second one.
        #expect(held[10] == Self.a)
        #expect(held[11] == Self.b)
    }

    @Test func aWeakLeadNeedsItsEvidenceToPileUp() {
        var selector = NearestExhibitSelector()
        // b leads by 2 dB from t = 1: 1 dB·s beyond the hysteresis per second, 6 s to reach 6 dB·s.
        let held = Self.feed(&selector, until: 10) { t in [(Self.a, 0), (Self.b, t < 1 ? -3 : 2)] }
        #expect(held[5] == Self.a)
        #expect(held[6] == Self.b)
    }

    @Test func aLeadThatComesAndGoesNeverHandsOver() {
        var selector = NearestExhibitSelector()
        // Equidistant exhibits with shadowing: b is 4 dB ahead one second, 4 dB behind the next.
        let held = Self.feed(&selector, until: 120) { t in [(Self.a, 0), (Self.b, t == 0 ? -1 : (t % 2 == 0 ? 4 : -4))] }
        #expect(held.allSatisfy { $0 == Self.a })
        #expect(selector.evidence <= 3)
    }

    @Test func aLeadWithinTheHysteresisNeverHandsOver() {
        var selector = NearestExhibitSelector()
        let held = Self.feed(&selector, until: 120) { t in [(Self.a, 0), (Self.b, t == 0 ? -1 : 0.9)] }
        #expect(held.allSatisfy { $0 == Self.a })
    }

    @Test func aFadeOfTheHolderAloneHandsNothingOver() {
        var selector = NearestExhibitSelector()
        // a holds at -2 dB with b steady at -6; a fades to -12 for 3 s (t = 10-12), then returns.
        // b's 6 dB lead is a's 10 dB fall, which b's 0 dB rise does not match: 10 - 0 - 3.5 dB is
        // withheld, and the lead credited is below the hysteresis. (Without the matched fall, 4 dB·s
        // a second hands over at t = 11.)
        let fade: (Int) -> [(BeaconIdentity, Double)] = { t in [(Self.a, (10...12).contains(t) ? -12 : -2), (Self.b, -6)] }
        let held = Self.feed(&selector, until: 20, fade)
        #expect(held.allSatisfy { $0 == Self.a })
        #expect(selector.evidence == 0)
        var unmatched = NearestExhibitSelector(matchWindow: 0)
        #expect(Self.feed(&unmatched, until: 20, fade)[11] == Self.b)
    }

    @Test func anArrivalHandsOverAsBefore() {
        var selector = NearestExhibitSelector()
        // The visitor walks from a to b: over t = 10-12 a falls by 3 dB a second and b rises by 3.
        let held = Self.feed(&selector, until: 16) { t in
            let step = Double(min(max(t - 9, 0), 4))
            return [(Self.a, -2 - 3 * step), (Self.b, -10 + 3 * step)]
        }
        // t = 11: b leads 4 dB; a fell 6, b rose 6: nothing withheld, 3 dB·s. t = 12: 4 more, over 6.
        #expect(held[11] == Self.a)
        #expect(held[12] == Self.b)
        #expect(held[16] == Self.b)
    }

    @Test func aFallTheRiseDoesNotMatchWithinTheDeadBandIsCredited() {
        var selector = NearestExhibitSelector()
        // At t = 10 a falls by 5 dB and b rises by 2 (a move away from a, the body between): 3 dB
        // unmatched is within the 3.5 dB band, so b's 3 dB lead counts as 2 dB·s a second from
        // t = 10 (with no band, 3 - 3 - 1 dB would never hand over).
        let held = Self.feed(&selector, until: 16) { t in [(Self.a, t < 10 ? 0 : -5), (Self.b, t < 10 ? -4 : -2)] }
        #expect(held[11] == Self.a)
        #expect(held[12] == Self.b)
    }

    @Test func aClockThatGoesBackKeepsNoLevelFromTheFuture() {
        var selector = NearestExhibitSelector()
        // a held at -2 dB until t = 20, then the clock restarts at 0 (a looped replay) with a at
        // -12 and b at -6: a's -2 at t = 18-20 is not "its best in the last 3 s", so b's lead
        // counts (4 dB·s a second, the clip) and hands over once a has held 2 s since t = 0.
        _ = Self.feed(&selector, until: 20) { _ in [(Self.a, -2), (Self.b, -6)] }
        let held = Self.feed(&selector, until: 3) { _ in [(Self.a, -12), (Self.b, -6)] }
        #expect(held[0] == Self.a)
        #expect(held[2] == Self.b)
    }

    @Test func aNewChallengerStartsFromNothing() {
        var selector = NearestExhibitSelector()
        // b piles up 4 dB·s, then c takes the lead: c needs its own 6 dB·s.
        let held = Self.feed(&selector, until: 8) { t in
            [(Self.a, 0), (Self.b, t >= 1 && t <= 2 ? 3 : -5), (Self.c, t >= 3 ? 3 : -5)]
        }
        #expect(held[4] == Self.a)
        #expect(held[5] == Self.c)
    }

    @Test func theHolderKeepsTheTitleForTheMinimumHold() {
        var second = NearestExhibitSelector(minimumHold: 5)
        let swapped = Self.feed(&second, until: 6) { t in [(Self.a, 0), (Self.b, t < 1 ? -10 : 20)] }
        // Evidence reaches 6 dB·s at t = 2, but a holds until t = 5.
        #expect(swapped[4] == Self.a)
        #expect(swapped[5] == Self.b)
    }

    @Test func withAFloorNobodyIsNearestUntilTheEvidenceSaysSo() {
        var selector = NearestExhibitSelector()
        // Floor -12 dB (4 m); a at -9 dB (2.8 m): 2 dB·s per second beyond the hysteresis.
        let held = Self.feed(&selector, until: 6, floor: -12) { _ in [(Self.a, -9)] }
        #expect(held[2] == nil)
        #expect(held[3] == Self.a)
        // A holder that stops being a candidate leaves nobody; a candidate just above the floor
        // plus the hysteresis never gets the title.
        let after = Self.feed(&selector, until: 30, floor: -12) { _ in [(Self.b, -11.5)] }
        #expect(after.allSatisfy { $0 == nil })
    }

    @Test func theWindowMedianIgnoresADeepFade() {
        let beacon = ScriptedBeacon.iBeacon(minor: 1)
        var track = BeaconTrack(
            identity: beacon.identity, address: beacon.address, time: 0, filter: AdaptiveKalmanRSSIFilter(),
            classifier: ProximityClassifier(immediateBelow: 0.5, nearBelow: 3, margin: 0.15, dwell: 1),
            exhibitIndex: nil, measuredPowerOverride: nil, pathLossExponent: 2, regionIndices: [], arrivalHistory: 64
        )
        // 10 packets/s at -60 dBm, with a 0.6 s deep fade of 20 dB in the last 2 s.
        for step in 0..<50 {
            let time = Double(step) / 10
            let rssi = step >= 40 && step <= 45 ? -80 : -60
            track.record(Sighting(time: time, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: rssi), staleAfter: 5)
        }
        let median = track.recentRSSIQuantile(at: 4.95, window: 2, quantile: 0.5)
        #expect(median == -60)
        #expect(track.recentRSSIQuantile(at: 4.95, window: 2, quantile: 0) == -80)
        #expect(track.recentRSSIQuantile(at: 4.95, window: 2, quantile: 1) == -60)
        // 20 packets, 6 of them -80: rank 0.25 * 19 = 4.75 is still the fade, 0.3 * 19 = 5.7 is
        // between the last -80 (rank 5) and the first -60 (rank 6): 70% of the way.
        #expect(track.recentRSSIQuantile(at: 4.95, window: 2, quantile: 0.25) == -80)
        let between = track.recentRSSIQuantile(at: 4.95, window: 2, quantile: 0.3) ?? 0
        #expect(abs(between - (-80 + 20 * 0.7)) < 1e-9)
        // A window of the last second is mostly the fade (6 of 10 packets): its median is the fade.
        #expect(track.recentRSSIQuantile(at: 4.95, window: 1, quantile: 0.5) == -80)
        // Nothing in the window: the last three packets stand in.
        #expect(track.recentRSSIQuantile(at: 100, window: 2, quantile: 0.5) == -60)
    }

    /// The failure: the visitor stands at exhibit a, and a crowd (or their own body)
    /// takes 20 dB off every beacon for 20 s, so every distance reads far beyond 4 m. Exhibit a is
    /// still the strongest, and still nearest: the choice compares exhibits with each other, it
    /// does not wait for one to read near. (The former 4 m floor left nobody nearest here.)
    @Test func shadowingThatMakesEveryEstimateFarDoesNotBlankTheNearest() {
        var noise = SeededNoise(seed: 21)
        var a = ScriptedBeacon.iBeacon(minor: 1), b = ScriptedBeacon.iBeacon(minor: 2)
        a.noise = 2
        b.noise = 2
        let shadow: (Double) -> Double = { t in t >= 20 && t < 40 ? pow(10, 20.0 / 20) : 1 }
        let sightings = merged([
            a.sightings(from: 0, to: 60, noise: &noise) { t in 1.0 * shadow(t) },
            b.sightings(from: 0.05, to: 60, noise: &noise) { t in 2.5 * shadow(t) },
        ])
        var engine = RangingEngine(catalog: NearestExhibitTests.catalog([1, 2]))
        let snapshots = run(sightings, engine: &engine, until: 60)
        let shadowed = snapshots.filter { $0.time >= 25 && $0.time < 40 }
        #expect(shadowed.allSatisfy { $0.beacons.allSatisfy { $0.accuracy > 3 } }, "every estimate reads far")
        #expect(snapshots.filter { $0.time >= 3 }.allSatisfy { $0.nearest == a.identity })
    }
}
