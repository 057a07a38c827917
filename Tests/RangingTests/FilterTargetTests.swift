import Foundation
import Testing
@testable import Ranging

/// The "fast and steady at once" target, on scripted packets: a beacon at 1 m, 10 adverts/s
/// with 4 dB per-packet noise, moved to 5 m. Checked over many seeds on the default filter through
/// log-distance with n = 2 (the law the packets follow), and on the whole default engine, whose
/// distance model is the posterior (`defaultEngineIsFastAndSteady`).
@Suite struct FilterTargetTests {
    static let stepTime = 40.0

    /// Distance estimates sampled every 0.1 s of capture time (one per packet), from `filter`.
    static func stepRun(kind: RSSIFilterKind, seed: UInt64) -> [(time: Double, distance: Double)] {
        var noise = SeededNoise(seed: seed)
        let beacon = ScriptedBeacon.iBeacon(minor: 1)
        let sightings = beacon.sightings(from: 0, to: stepTime + 20, noise: &noise) { $0 < stepTime ? 1 : 5 }
        var filter = kind == .adaptive ? AdaptiveKalmanRSSIFilter() : kind.makeFilter()
        var result: [(Double, Double)] = []
        for sighting in sightings {
            filter.add(Double(sighting.rssi), at: sighting.time)
            let estimate = filter.estimate(at: sighting.time)!
            result.append((sighting.time, LogDistanceModel.distance(rssi: estimate, measuredPower: -59, exponent: 2)!))
        }
        return result
    }

    /// Seconds after the step until the estimate first reaches halfway in log distance (sqrt 5 m).
    static func reactionTime(_ run: [(time: Double, distance: Double)]) -> Double {
        let halfway = 5.0.squareRoot()
        return run.first { $0.time >= stepTime && $0.distance >= halfway }.map { $0.time - stepTime } ?? .infinity
    }

    /// 10th-90th percentile spread (m) of the estimate while at 1 m, sampled at 1 s ticks after a
    /// 10 s warm-up (no filter can be steady on its first few packets: 10 packets average to 1.3 dB).
    static func spreadAtOneMetre(_ run: [(time: Double, distance: Double)]) -> Double {
        let ticks = run.filter { $0.time >= 10 && $0.time < stepTime && abs($0.time.rounded() - $0.time) < 0.05 }
        return percentileSpread(ticks.map(\.distance))
    }

    @Test(arguments: 0..<24)
    func defaultFilterIsFastAndSteady(seed: Int) {
        let run = Self.stepRun(kind: .adaptive, seed: UInt64(seed))
        let reaction = Self.reactionTime(run)
        let spread = Self.spreadAtOneMetre(run)
        #expect(reaction <= 2.0, "seed \(seed): halfway after \(reaction) s")
        #expect(spread <= 0.10, "seed \(seed): 10-90% spread \(spread) m at 1 m")
    }

    /// The default engine, posterior distance included, on the same step: halfway (in log distance)
    /// between what it settles on at 1 m and at 5 m within 2 s, and a 10th-90th percentile spread
    /// at 1 m of at most 0.10 m. The posterior compresses distances toward its prior, so it settles
    /// short of 5 m; the targets are about following and steadiness, which it keeps.
    @Test(arguments: 0..<12)
    func defaultEngineIsFastAndSteady(seed: Int) {
        var noise = SeededNoise(seed: UInt64(seed))
        let beacon = ScriptedBeacon.iBeacon(minor: 1)
        var engine = RangingEngine()
        var run: [(time: Double, distance: Double)] = []
        for sighting in beacon.sightings(from: 0, to: Self.stepTime + 20, noise: &noise, distance: { $0 < Self.stepTime ? 1 : 5 }) {
            engine.record(sighting)
            // A tick per packet (the monitor ticks at 1 s; this only samples the estimate finely).
            run.append((sighting.time, engine.tick(at: sighting.time).beacons[0].accuracy))
        }
        let before = run.filter { $0.time > 30 && $0.time < Self.stepTime }.map(\.distance).sorted()
        let after = run.filter { $0.time > Self.stepTime + 10 }.map(\.distance).sorted()
        let halfway = (before[before.count / 2] * after[after.count / 2]).squareRoot()
        let reaction = run.first { $0.time >= Self.stepTime && $0.distance >= halfway }.map { $0.time - Self.stepTime } ?? .infinity
        #expect(reaction <= 2.0, "seed \(seed): halfway after \(reaction) s")
        #expect(Self.spreadAtOneMetre(run) <= 0.10, "seed \(seed): spread \(Self.spreadAtOneMetre(run)) m")
        #expect(after[after.count / 2] > 2 * before[before.count / 2], "seed \(seed): it follows the move")
    }

    @Test func defaultFilterSettlesAtFiveMetres() {
        let run = Self.stepRun(kind: .adaptive, seed: 99)
        let late = run.filter { $0.time > Self.stepTime + 10 }.map(\.distance)
        let median = late.sorted()[late.count / 2]
        #expect(abs(median - 5) < 0.5, "median \(median) m")
    }

    /// The references behave as the issue describes them: the running average is steady but slow,
    /// the exponential filters are quick but noisy.
    @Test func referenceFiltersShowTheirKnownTradeOffs() {
        let running = Self.stepRun(kind: .runningAverage, seed: 3)
        #expect(Self.reactionTime(running) > 5)
        #expect(Self.spreadAtOneMetre(running) < 0.10)
        let adaptive = Self.stepRun(kind: .adaptive, seed: 3)
        #expect(Self.reactionTime(running) > Self.reactionTime(adaptive))
        let kalman = Self.stepRun(kind: .kalman, seed: 3)
        #expect(Self.reactionTime(kalman) < 4)
        #expect(Self.spreadAtOneMetre(kalman) > Self.spreadAtOneMetre(adaptive))
        let iqm = Self.stepRun(kind: .iqm, seed: 3)
        #expect(Self.reactionTime(iqm) > 3)
    }

    /// Isolated deep fades (-25 dB single packets, 3% of them) barely move the default estimate.
    @Test func deepFadesAreClipped() {
        var noise = SeededNoise(seed: 7)
        var filter = AdaptiveKalmanRSSIFilter()
        var estimates: [Double] = []
        for step in 0..<600 {
            let time = Double(step) / 10
            var rssi = -59 + noise.gaussian(4)
            if noise.uniform() < 0.03 { rssi -= 25 }
            filter.add(rssi.rounded(), at: time)
            if time > 10 { estimates.append(filter.estimate(at: time)!) }
        }
        let mean = estimates.reduce(0, +) / Double(estimates.count)
        #expect(abs(mean - (-59)) < 1.5, "mean estimate \(mean)")
    }
}
