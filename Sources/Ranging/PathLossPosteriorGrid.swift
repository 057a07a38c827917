import Foundation

/// The grid the default model's posterior is computed on, shared by the table the engine reads
/// (`PathLossPosteriorTable`) and the CDF the learning scores the range with
/// (`PathLossPosteriorCDF`), so both place the same mass in the same cells: x = P1m - RSSI from -40
/// to +90 dB in 0.25 dB steps (rows), log10 d from 1 cm to 1 km in 0.01 decades (cells, wider
/// than any prior puts mass on).
struct PathLossPosteriorGrid {
    static let xLow = PathLossPosteriorTable.xLow
    static let xStep = PathLossPosteriorTable.xStep
    static let xCount = PathLossPosteriorTable.xCount
    static let lCount = 501
    static let lLow = -2.0
    static let lStep = 5.0 / Double(lCount - 1)

    private var inside: [Bool]
    private var expectedLoss: [Double]
    private var variance: [Double]
    private let body: Double
    private let share: Double

    init(_ key: PathLossPosteriorTable.Key) {
        let (near, far) = (log10(max(key.nearestDistance, 0.01)), log10(min(max(key.farthestDistance, key.nearestDistance), 1000)))
        inside = [Bool](repeating: false, count: Self.lCount)
        expectedLoss = [Double](repeating: 0, count: Self.lCount)
        variance = [Double](repeating: 1, count: Self.lCount)
        for j in 0..<Self.lCount {
            let l = Self.lLow + Double(j) * Self.lStep
            let spread = 10 * key.exponentSpread * l
            variance[j] = key.shadowing * key.shadowing + spread * spread + 1e-9
            expectedLoss[j] = 10 * key.exponent * l
            if let far = key.farSlope?.line(l: l, near: key.exponent, nearSpread: key.exponentSpread) {
                variance[j] = key.shadowing * key.shadowing + far.variance + 1e-9
                expectedLoss[j] = far.mean
            }
            // Flat in log distance inside the bounds, nothing outside.
            inside[j] = l >= near - Self.lStep / 2 && l <= far + Self.lStep / 2
        }
        body = max(key.bodyLoss, 0)
        share = body > 0 ? min(max(key.bodyShare, 0), 1) : 0
    }

    /// The unnormalised posterior over the cells of row `i` into `weights` (zero outside the
    /// prior's bounds); returns their sum.
    func weights(row i: Int, into weights: inout [Double]) -> Double {
        let x = Self.xLow + Double(i) * Self.xStep
        var total = 0.0
        for j in 0..<Self.lCount {
            guard inside[j] else { weights[j] = 0; continue }
            weights[j] = Self.likelihood(x - expectedLoss[j], variance: variance[j], body: body, share: share)
            total += weights[j]
        }
        return total
    }

    /// The density (times sqrt(2 pi)) of the residual `r = x - expected x at d` at a distance whose
    /// spread is `variance`: no body (a normal) on `1 - share` of readings, a body's extra loss
    /// drawn evenly from 0 to `body` dB on the rest (the normal convolved with that: a difference
    /// of two normal CDFs over the width).
    static func likelihood(_ r: Double, variance: Double, body: Double, share: Double) -> Double {
        let sd = variance.squareRoot()
        let clear = exp(-0.5 * r * r / variance) / sd
        guard share > 0 else { return clear }
        let blocked = (erf(r / (sd * 2.0.squareRoot())) - erf((r - body) / (sd * 2.0.squareRoot()))) / 2 / body
        return (1 - share) * clear + share * blocked * (2 * Double.pi).squareRoot()
    }

    /// The log10 d below which `fraction` of the posterior mass lies: the weights are the density at
    /// cell centres, so the mass of each cell is spread evenly across it.
    func quantile(_ fraction: Double, weights: [Double], total: Double) -> Double {
        let target = fraction * total
        var cumulative = 0.0
        for j in weights.indices {
            let next = cumulative + weights[j]
            if next >= target {
                let within = weights[j] > 0 ? (target - cumulative) / weights[j] : 0
                return Self.lLow + (Double(j) - 0.5 + within) * Self.lStep
            }
            cumulative = next
        }
        return Self.lLow + Double(weights.count - 1) * Self.lStep
    }
}
