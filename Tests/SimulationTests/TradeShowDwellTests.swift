import Ranging
import Testing
@testable import Simulation

/// The trade-show recording exists for the dwell-time report: replayed through the default
/// pipeline, each booth's dwell should match the time it was truly the nearest booth within
/// 3 m (the engine's "near"), which is the stays plus any slow pass-by.
@Suite struct TradeShowDwellTests {
    @Test func dwellPerBoothFollowsTheTruth() throws {
        let scenario = TradeShowScenario.make(seed: 1)
        let replay = try EngineReplay(scenario: scenario, seed: 1)
        let report = replay.engine.dwellReport(at: replay.ticks.last!.time)
        var stayTotal: [String: Double] = [:]
        for stay in GroundTruth.stays(scenario) {
            stayTotal[scenario.beacons[stay.beaconIndex].identity.description, default: 0] += stay.end - stay.start
        }
        var nearTotal: [String: Double] = [:]
        let step = 0.1
        for sample in GroundTruth.samples(scenario, step: step) where sample.distances[sample.nearest] < 3 {
            nearTotal[scenario.beacons[sample.nearest].identity.description, default: 0] += step
        }
        #expect(report.rows.count == scenario.beacons.count)
        var misses: [String] = []
        for row in report.rows {
            let near = nearTotal[row.id] ?? 0
            print("booth \(row.name): dwell \(row.total) s in \(row.visits) visits; truly nearest within 3 m \(near) s; stays \(stayTotal[row.id] ?? 0) s")
            if abs(row.total - near) > 0.15 * near + 8 { misses.append(row.name) }
        }
        #expect(misses.count <= 1, "\(misses)")
        // Measured with the evidence rule for `nearest` (README "Nearest exhibit"): every booth within
        // tolerance but Halcyon Audio, 17 s against 30 s (11 s with the former rule; 12.5 s of error
        // is allowed): a 22 s stay 1.3 m from the booth whose mean RSSI there gives 1.8 m with n = 2,
        // so shadowing of 5 dB keeps it beyond the 3 m "near" boundary for the first 6 s of the stay
        // and `nearest` stays null until it is near. When the engine gets
        // it, the known issue stops being recorded and the test fails: then delete the wrapper.
        withKnownIssue("the default pipeline loses half of one trade-show stay") {
            #expect(misses.isEmpty, "\(misses)")
        }
    }
}
