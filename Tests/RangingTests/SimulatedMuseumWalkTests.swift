import BeaconFormats
import Foundation
import Simulation
import Testing
@testable import Ranging

/// The issue's museum walk, simulated by the Simulation module (its radio model: per-beacon
/// path-loss exponent and calibration error, Gauss-Markov shadowing, Rician fading, body loss,
/// deep fades, packet loss), ranged by the default engine with the museum catalog, scored by
/// `NearestExhibitScore` (share of stay ticks after 2 s naming the visited exhibit; exhibit-to-
/// exhibit changes of `nearest` per real move). Prints the figures per seed.
@Suite struct SimulatedMuseumWalkTests {
    static func score(seed: UInt64, tick: Double = 1, configuration: RangingConfiguration = RangingConfiguration()) -> NearestExhibitScore {
        let scenario = MuseumScenario.make(seed: seed)
        let identities = scenario.beacons.map { BeaconIdentity.iBeacon(uuid: $0.frame.uuid, major: $0.frame.major, minor: $0.frame.minor) }
        let catalog = ExhibitCatalog(exhibits: zip(identities, scenario.beacons).map { Exhibit(id: $0.description, name: $1.name) })
        var pipeline = BeaconPipeline(engine: RangingEngine(configuration: configuration, catalog: catalog), tickInterval: tick)
        var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        var radio = RadioSimulator(scenario: scenario, seed: seed)
        while let reception = radio.next() {
            let ad = reception.advertisement
            pipeline.advance(to: ad.timestamp) { ticks.append(($0.time, $0.nearest)) }
            guard let rssi = ad.rssi, let frame = BeaconDecoder.decode(ad.data) else { continue }
            pipeline.record(Sighting(time: ad.timestamp, frame: frame, address: ad.address, rssi: Int(rssi)))
        }
        pipeline.finish { ticks.append(($0.time, $0.nearest)) }
        return NearestExhibitScore(stays: GroundTruth.stays(scenario), identities: identities, ticks: ticks)
    }

    @Test func nearestFollowsTheVisitor() {
        var shares: [Double] = []
        var changes = 0
        var moves = 0
        var worst = 1.0
        for seed in UInt64(1)...8 {
            let score = Self.score(seed: seed)
            shares.append(score.overallShare)
            worst = min(worst, score.worstStay?.share ?? 1)
            changes += score.changes
            moves += score.moves
            print("museum seed \(seed): \(String(format: "%.1f", score.overallShare * 100))% of stay ticks, worst stay \(String(format: "%.0f", (score.worstStay?.share ?? 1) * 100))%, \(String(format: "%.2f", score.changesPerMove)) changes per move")
        }
        let mean = shares.reduce(0, +) / Double(shares.count)
        let perMove = Double(changes) / Double(moves)
        print("museum walk (simulated, 8 seeds): \(String(format: "%.1f", mean * 100))% of stay ticks, worst stay \(String(format: "%.0f", worst * 100))%, \(String(format: "%.2f", perMove)) changes per move")
        // Measured: 98.0% (mean of the seeds' shares) and 1.15 changes per move (98.5% and 1.11 with
        // the former 4 m floor, which left nobody nearest between far exhibits); the issue's target
        // is 97% of stay ticks and at most 1.2 changes per move (SimulationTests.MuseumWalkTests
        // checks it on the end-to-end replay, seeds 1-8).
        #expect(mean >= 0.97)
        #expect(perMove <= 1.2)
    }
}
