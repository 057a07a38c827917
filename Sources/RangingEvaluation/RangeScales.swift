import Foundation
import Ranging

/// The range's scales (`PathLossPrior.rangeScaleNear`, `rangeScaleFar`) chosen on training runs:
/// the scales at which the run farthest from the stated probability is as near it as any choice
/// makes it, then the next farthest, and so on (each run's miss, worst first, compared
/// lexicographically). One scale for both ends by default (what ships); with `separateEnds` a
/// scale per end (measured and not kept: docs/ranging-history.md, "Fourth round").
///
/// A run's coverage is one minus its misses below the near end and above the far end (disjoint),
/// and the near end's misses depend on the near scale alone: so each run's misses are counted once
/// per candidate scale and every pair is scored from the counts, exactly.
public enum RangeScales {
    /// The candidates: 0.25 to 4, log-spaced 193 to the factor of 16 (1.45% apart: a step moves a
    /// run's share by under a point).
    public static let candidates = (0...192).map { 0.25 * pow(16, Double($0) / 192) }

    /// - Parameter positions: per training run, where each tick's truth falls in the model's
    ///   posterior (`ModelLearning.truthPositions`, sorted).
    public static func choose(_ positions: [[Double]], probability: Double, separateEnds: Bool = false) -> (near: Double, far: Double) {
        let z = NormalQuantile.twoSided(probability)
        let tails = candidates.map { NormalQuantile.upperTail($0 * z) }
        // below[r][k]: run r's ticks whose truth is under the near tail of candidate k.
        let below = positions.map { sorted in tails.map { countBelow(sorted, $0) } }
        let above = positions.map { sorted in tails.map { sorted.count - countBelow(sorted, 1 - $0, orEqual: true) } }
        var best: (misses: [Double], near: Int, far: Int)?
        for near in candidates.indices {
            for far in separateEnds ? Array(candidates.indices) : [near] {
                // Each run's distance from the stated probability, worst first: compared
                // lexicographically (the worst, then the next worst...), so a tie on the worst run
                // does not let the others drift down to it.
                let misses = positions.indices.filter { !positions[$0].isEmpty }.map { run in
                    let held = positions[run].count - below[run][near] - above[run][far]
                    return abs(Double(held) / Double(positions[run].count) - probability)
                }.sorted(by: >)
                if let current = best, !misses.lexicographicallyPrecedes(current.misses) { continue }
                best = (misses, near, far)
            }
        }
        guard let best else { return (1, 1) }
        return (candidates[best.near], candidates[best.far])
    }

    /// The share of `sorted` positions a range with these scales holds.
    public static func coverage(_ sorted: [Double], near: Double, far: Double, probability: Double) -> Double {
        let z = NormalQuantile.twoSided(probability)
        let (nearTail, farTail) = (NormalQuantile.upperTail(near * z), NormalQuantile.upperTail(far * z))
        let held = countBelow(sorted, 1 - farTail, orEqual: true) - countBelow(sorted, nearTail)
        return Double(held) / Double(max(1, sorted.count))
    }

    /// How many of `sorted` are below `value` (or at most `value` when `orEqual`): the range's
    /// ends are inclusive, so a truth exactly at one is held.
    static func countBelow(_ sorted: [Double], _ value: Double, orEqual: Bool = false) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value || (orEqual && sorted[middle] == value) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
