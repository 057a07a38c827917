import Foundation

/// The default model's whole posterior distribution function over distance, per x = P1m - RSSI:
/// where a known true distance falls in it (the probability integral transform). A range leaves
/// the truth below its near end exactly when that value is under the near tail, and above its far
/// end when it is over one minus the far tail; so the range's two scales are learned by placing
/// each training tick's truth once (`RangingEvaluation.ModelLearning`), not by building a table for
/// every pair of scales. Built on the same grid, with the same mass per cell, as
/// `PathLossPosteriorTable`; the key's tails are not used. About 2 MB: built for learning, not kept.
public struct PathLossPosteriorCDF: Sendable {
    /// Per row, the posterior mass below each cell edge (`lCount + 1` values from 0 to 1).
    private let cumulative: [Double]
    private static let edges = PathLossPosteriorGrid.lCount + 1

    public init(_ key: PathLossPosteriorTable.Key) {
        let grid = PathLossPosteriorGrid(key)
        var cumulative = [Double](repeating: 0, count: PathLossPosteriorGrid.xCount * Self.edges)
        var weights = [Double](repeating: 0, count: PathLossPosteriorGrid.lCount)
        for i in 0..<PathLossPosteriorGrid.xCount {
            let total = grid.weights(row: i, into: &weights)
            guard total > 0 else { continue }
            var sum = 0.0
            for j in weights.indices {
                sum += weights[j]
                cumulative[i * Self.edges + j + 1] = sum / total
            }
        }
        self.cumulative = cumulative
    }

    /// The posterior probability that the distance is below `distance` (m) given `x` dB, linear
    /// between the grid's rows as the table's quantiles are. x outside -40...+90 dB is clamped.
    public func probabilityBelow(_ distance: Double, x: Double) -> Double {
        let position = min(max((x - PathLossPosteriorGrid.xLow) / PathLossPosteriorGrid.xStep, 0), Double(PathLossPosteriorGrid.xCount - 1))
        let row = min(Int(position), PathLossPosteriorGrid.xCount - 2)
        let f = position - Double(row)
        // Cell j spans log10 d from lLow + (j - 1/2) step to lLow + (j + 1/2) step.
        let cell = (log10(distance) - PathLossPosteriorGrid.lLow) / PathLossPosteriorGrid.lStep + 0.5
        let edge = min(max(cell, 0), Double(PathLossPosteriorGrid.lCount))
        let j = min(Int(edge), PathLossPosteriorGrid.lCount - 1)
        let within = edge - Double(j)
        func at(_ row: Int) -> Double {
            let base = row * Self.edges + j
            return cumulative[base] + (cumulative[base + 1] - cumulative[base]) * within
        }
        return at(row) + (at(row + 1) - at(row)) * f
    }
}
