import BeaconFormats
import Foundation
import Testing
@testable import Ranging

/// The twelfth round's two rules for sparse beacons (docs/ranging-history.md): the CUSUM threshold
/// at a constant false-alarm rate per second, and a beacon silent beyond likely ranked down.
@Suite struct SparseBeaconRuleTests {
    /// Siegmund's approximation against the published two-sided CUSUM table (Montgomery, k = 1/2:
    /// in-control ARL 168 at h = 4 and 465 at h = 5); two equal sides halve the one-sided length.
    @Test func siegmundsRunLengthMatchesThePublishedTable() {
        #expect(abs(CUSUMThreshold.averageRunLength(slack: 0.5, threshold: 4) / 2 - 168) < 168 * 0.01)
        #expect(abs(CUSUMThreshold.averageRunLength(slack: 0.5, threshold: 5) / 2 - 465) < 465 * 0.01)
    }

    @Test(arguments: [3.0, 4.5, 6.0, 8.0])
    func theThresholdInvertsTheRunLength(h: Double) {
        let samples = CUSUMThreshold.averageRunLength(slack: 0.75, threshold: h)
        #expect(abs(CUSUMThreshold.threshold(slack: 0.75, averageRunLength: samples) - h) < 1e-9)
    }

    static func perSecond(_ rate: Double) -> Double {
        CUSUMThreshold.matchingFalseAlarmsPerSecond(rate: rate, slack: 0.75, reference: 8, referenceRate: 10, floor: 3)
    }

    /// Unchanged at and above the reference rate; below it, the same false restarts per second
    /// (run length in packets / rate) as 8 σ at 10 packets/s; never under the floor.
    @Test func theThresholdKeepsFalseRestartsPerSecond() {
        #expect(Self.perSecond(10) == 8)
        #expect(Self.perSecond(40) == 8)
        let reference = CUSUMThreshold.averageRunLength(slack: 0.75, threshold: 8) / 10
        for rate in [5.0, 1.0, 0.5, 0.1] {
            let h = Self.perSecond(rate)
            #expect(h < 8)
            let seconds = CUSUMThreshold.averageRunLength(slack: 0.75, threshold: h) / rate
            #expect(abs(seconds / reference - 1) < 1e-9, "rate \(rate): \(h) σ")
        }
        #expect(abs(Self.perSecond(0.5) - 6.00) < 0.005)
        #expect(Self.perSecond(1e-6) == 3)
    }

    /// Packets of a beacon at `rate` per second, 4 dB of noise, stepping from -60 dBm down by `step`
    /// dB at 100 s.
    static func stepPackets(rate: Double, seed: UInt64, step: Double = 12) -> [(time: Double, rssi: Double)] {
        var noise = SeededNoise(seed: seed)
        return stride(from: 0.0, to: 200, by: 1 / rate).map { time in
            (time, (time < 100 ? -60 : -60 - step) + noise.gaussian(4).rounded())
        }
    }

    static func estimates(_ packets: [(time: Double, rssi: Double)], rule: AdaptiveKalmanRSSIFilter.ThresholdRule) -> [Double] {
        var parameters = AdaptiveKalmanRSSIFilter.Parameters()
        parameters.thresholdRule = rule
        var filter = AdaptiveKalmanRSSIFilter(parameters: parameters)
        return packets.map { packet in
            filter.add(packet.rssi, at: packet.time)
            return filter.estimate(at: packet.time)!
        }
    }

    /// A 4 dB step (one σ) builds evidence slowly, so any threshold below 8 σ at 10/s would restart
    /// on another packet and show here.
    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func aDenseBeaconIsFilteredExactlyAsBefore(seed: UInt64) {
        let packets = Self.stepPackets(rate: 10, seed: seed, step: 4)
        let perSecond = Self.estimates(packets, rule: .perSecond), perSample = Self.estimates(packets, rule: .perSample)
        let differing = zip(perSecond, perSample).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(perSample.count) estimates differ")
    }

    /// At one packet every 2 s the lower threshold confirms the 12 dB step in fewer packets: summed
    /// over seeds, the packets until the estimate is within 3 dB of the new level.
    @Test func aSparseBeaconConfirmsAMoveSooner() {
        func packetsToFollow(_ rule: AdaptiveKalmanRSSIFilter.ThresholdRule, seed: UInt64) -> Int {
            let packets = Self.stepPackets(rate: 0.5, seed: seed)
            let after = zip(packets, Self.estimates(packets, rule: rule)).filter { $0.0.time >= 100 }
            return after.firstIndex { abs($0.1 + 72) < 3 } ?? after.count
        }
        let perSample = (1...12).map { packetsToFollow(.perSample, seed: $0) }.reduce(0, +)
        let perSecond = (1...12).map { packetsToFollow(.perSecond, seed: $0) }.reduce(0, +)
        #expect(perSecond < perSample, "per second \(perSecond) packets, per sample \(perSample)")
    }

    /// Two beacons heard every 2 s, the nearer one falls silent at 20 s: by 23 s (one packet missed,
    /// heard in every gap before: (1 - 1)^1 = 0 < 1%) the heard one leads the list and is `nearest`;
    /// without the rule the silent one keeps both until it goes stale.
    @Test func aBeaconSilentBeyondLikelyRanksBelowHeardOnes() throws {
        let near = ScriptedBeacon.iBeacon(minor: 1), far = ScriptedBeacon.iBeacon(minor: 2)
        func sightings(_ beacon: ScriptedBeacon, rssi: Int, until end: Double) -> [Sighting] {
            stride(from: 0.0, to: end, by: 2).map {
                Sighting(time: $0, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: rssi)
            }
        }
        let packets = merged([sightings(near, rssi: -60, until: 21), sightings(far, rssi: -75, until: 40)])
        func snapshot(at time: Double, level: Double?) -> RangingSnapshot {
            var configuration = RangingConfiguration()
            configuration.silentRankLevel = level
            var engine = RangingEngine(configuration: configuration)
            return run(packets, engine: &engine, until: time).last!
        }
        let before = snapshot(at: 20, level: 0.01)
        #expect(before.beacons.first?.identity == near.identity)
        #expect(before.nearest == near.identity)
        let ranked = snapshot(at: 23, level: 0.01)
        #expect(ranked.beacons.first?.identity == far.identity)
        #expect(ranked.nearest == far.identity)
        let shipped = snapshot(at: 23, level: nil)
        #expect(shipped.beacons.first?.identity == near.identity)
        #expect(shipped.nearest == near.identity)
    }
}
