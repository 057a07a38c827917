import Foundation
import Testing
@testable import Ranging

@Suite struct CalibrationTests {
    @Test func measuredPowerIsATrimmedMeanWithSpread() throws {
        // 20 samples: 18 around -60, one deep fade and one reflection peak (dropped by the 10% trim).
        var samples = Array(repeating: -60.0, count: 9) + Array(repeating: -62.0, count: 9)
        samples += [-95, -40]
        let result = try Calibration.measuredPower(samples: samples)
        #expect(result.samples == 20)
        #expect(result.kept == 16)
        // sorted: -95, -62 x9, -60 x9, -40; trimmed 2 each end -> -62 x8, -60 x8
        #expect(result.dBm == -61)
        #expect(abs(result.spread - (16.0 / 15).squareRoot()) < 1e-12)
        #expect(result.p10 < result.dBm && result.dBm < result.p90)
    }

    @Test func measuredPowerNeedsTwentySamples() {
        #expect(throws: Calibration.Failure.self) { try Calibration.measuredPower(samples: Array(repeating: -60, count: 19)) }
    }

    @Test func measuredPowerFromNoisySamplesIsClose() throws {
        var noise = SeededNoise(seed: 31)
        let samples = (0..<200).map { _ in -59 + noise.gaussian(4) }
        let result = try Calibration.measuredPower(samples: samples)
        #expect(abs(result.dBm - -59) < 0.6)
        #expect(result.spread > 2 && result.spread < 4)
    }

    @Test func pathLossFitRecoversExponentAndPower() throws {
        let distances = [1.0, 2, 4, 8]
        let exact = distances.flatMap { d in
            Array(repeating: (distance: d, rssi: LogDistanceModel.rssi(atDistance: d, measuredPower: -61, exponent: 2.7)), count: 3)
        }
        let fit = try Calibration.pathLoss(samples: exact)
        #expect(abs(fit.exponent - 2.7) < 1e-9)
        #expect(abs(fit.measuredPower - -61) < 1e-9)
        #expect(fit.residual < 1e-9)

        var noise = SeededNoise(seed: 32)
        let noisy = (0..<400).map { index -> (distance: Double, rssi: Double) in
            let d = [1.0, 3.0][index % 2]
            return (d, LogDistanceModel.rssi(atDistance: d, measuredPower: -59, exponent: 2.2) + noise.gaussian(4))
        }
        let noisyFit = try Calibration.pathLoss(samples: noisy)
        #expect(abs(noisyFit.exponent - 2.2) < 0.3)
        let knownPower = try Calibration.pathLoss(samples: noisy, measuredPower: -59)
        #expect(knownPower.measuredPower == -59)
        #expect(abs(knownPower.exponent - 2.2) < 0.2)
    }

    @Test func pathLossNeedsTwoDistances() {
        #expect(throws: Calibration.Failure.self) { try Calibration.pathLoss(samples: [(2, -65), (2, -66)]) }
        #expect(throws: Calibration.Failure.self) { try Calibration.pathLoss(samples: [(0, -65), (-1, -66)]) }
    }
}
