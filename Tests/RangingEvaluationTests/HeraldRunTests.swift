import Foundation
import Testing
import TestFixtures
@testable import RangingEvaluation

/// The HERALD runs load as the shared data README describes them.
@Suite(.onComputationThread) struct HeraldRunTests {
    @Test func parsesUTCTimestampsExactly() {
        // 2021-01-06 15:01:17 UTC, by `date -u -d ... +%s`.
        #expect(HeraldRun.unixTime("2021-01-06 15:01:17") == 1_609_945_277)
        #expect(HeraldRun.unixTime("1970-01-01 00:00:00") == 0)
        #expect(HeraldRun.unixTime("2024-02-29 23:59:59") == 1_709_251_199)
        #expect(HeraldRun.unixTime("2021-13-06 15:01:17") == nil)
        #expect(HeraldRun.unixTime("time") == nil)
    }
}

extension HeraldRunTests {
    /// The shared data README's table: seven runs, their distances, and phones that read -50 to
    /// -84 dBm at 1 m.
    @Test func theSevenRunsLoadWithTheirCalibration() throws {
        let runs = try HeraldRuns.all.get()
        #expect(runs.count == 7)
        let powers = Dictionary(uniqueKeysWithValues: runs.map { ($0.name, $0.measuredPowerAtOneMetre) })
        #expect(powers["20210106-1501-A"] == -80)
        #expect(powers["20210111-1015-A"] == -50)
        #expect(powers["20210112-2303-B"] == -84)
        #expect(powers["pixel2-pixel3-0-340cm"] == -74)
        let short = try #require(runs.first { $0.name == "20210305-0958-A" })
        #expect(abs(short.farthest - 1.5) < 0.011)
        #expect(PathLossFit.secondCalibrationDistance(for: short) == 1.5)
        for run in runs { #expect(zip(run.samples, run.samples.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(run.name) in time order") }
    }
}
