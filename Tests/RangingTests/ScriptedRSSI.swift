import BeaconFormats
import Foundation
import HCI
@testable import Ranging

/// Deterministic noise for scripted RSSI series: SplitMix64 and Box-Muller, so every test run sees
/// the same packets (no wall clock, no system randomness).
struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Normal with standard deviation `sigma`.
    mutating func gaussian(_ sigma: Double) -> Double {
        sigma * (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }
}

/// Builds scripted sightings: a beacon at a distance that may change over time, heard at a fixed
/// rate with Gaussian per-packet noise, through the log-distance model with n = 2 and P1m = -59.
struct ScriptedBeacon {
    var identity: BeaconIdentity
    var address: BDAddress
    var measuredPower = -59
    var exponent = 2.0
    var rate = 10.0
    var noise = 4.0

    static func iBeacon(minor: UInt16, address: UInt64 = 0xC0FFEE000000) -> ScriptedBeacon {
        ScriptedBeacon(
            identity: .iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: minor),
            address: BDAddress(rawValue: address + UInt64(minor))
        )
    }

    /// Sightings from `start` (inclusive) to `end` (exclusive) with the distance given by `distance(t)`.
    func sightings(from start: Double, to end: Double, noise generator: inout SeededNoise, distance: (Double) -> Double) -> [Sighting] {
        var result: [Sighting] = []
        var time = start
        let period = 1 / rate
        while time < end {
            let mean = LogDistanceModel.rssi(atDistance: distance(time), measuredPower: Double(measuredPower), exponent: exponent)
            let rssi = Int((mean + generator.gaussian(noise)).rounded())
            result.append(Sighting(time: time, identity: identity, measuredPower: measuredPower, address: address, rssi: rssi))
            time += period
        }
        return result
    }
}

/// Merges several beacons' sightings in time order.
func merged(_ lists: [[Sighting]]) -> [Sighting] {
    lists.flatMap { $0 }.sorted { $0.time < $1.time }
}

/// Runs sightings through an engine, ticking every `tick` seconds; returns the snapshots.
func run(_ sightings: [Sighting], engine: inout RangingEngine, tick: Double = 1, until end: Double) -> [RangingSnapshot] {
    var snapshots: [RangingSnapshot] = []
    var next = tick
    var index = 0
    while next <= end {
        while index < sightings.count, sightings[index].time < next {
            engine.record(sightings[index])
            index += 1
        }
        snapshots.append(engine.tick(at: next))
        next += tick
    }
    return snapshots
}

func percentileSpread(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return Calibration.percentile(sorted, 0.9) - Calibration.percentile(sorted, 0.1)
}

extension RangingConfiguration {
    /// Plain log-distance at n = 2, the law the scripted beacons follow: for tests of the engine's
    /// arithmetic and plumbing (staleness, overrides, ticks) rather than of the default model.
    static var plainLogDistance: RangingConfiguration {
        var configuration = RangingConfiguration()
        configuration.distanceModel = .logDistance
        configuration.pathLossExponent = 2
        return configuration
    }
}
