import Ranging
import Simulation

/// How often the fourteenth round's movement cue (`MovementCue`, computed under the
/// `--silent-rule moved-apart` and `changed` rules) fired, by its two statistics at 1% and 5%
/// whatever level the rule acts at, and how often it would act (fire with a candidate silent
/// beyond the nearest window, which the rule then ranks down), split by whether the visitor stood
/// at an exhibit (a stay tick after its first 2 s, the ticks `nearest` is scored on) or was moving.
public struct MovementCueCount: Sendable, Equatable {
    /// The statistics and levels counted, in `Side.fired`'s order.
    public static let columns = ["Q 1%", "Q 5%", "NIS 1%", "NIS 5%"]

    public struct Side: Sendable, Equatable {
        public var ticks = 0
        public var fired = [0, 0, 0, 0]
        public var acted = [0, 0, 0, 0]

        /// Counts one tick's cue; `silent`: a candidate was silent beyond the nearest window.
        public mutating func add(_ cue: MovementCue?, silent: Bool) {
            ticks += 1
            let tails = [cue?.tailProbability ?? 1, cue?.magnitudeTailProbability ?? 1]
            for (statistic, tail) in tails.enumerated() {
                for (column, level) in [0.01, 0.05].enumerated() where tail < level {
                    fired[2 * statistic + column] += 1
                    if silent { acted[2 * statistic + column] += 1 }
                }
            }
        }

        mutating func add(_ other: Side) {
            ticks += other.ticks
            for column in fired.indices {
                fired[column] += other.fired[column]
                acted[column] += other.acted[column]
            }
        }

        /// "fired / acted" per column, for a Markdown row.
        public var cells: String {
            fired.indices.map { "\(fired[$0]) / \(acted[$0])" }.joined(separator: " | ")
        }
    }

    public var standing = Side()
    public var moving = Side()

    public init() {}

    /// Counts one tick (nothing unless the configuration ranks by the cue).
    mutating func add(_ engine: RangingEngine, _ snapshot: RangingSnapshot, stays: [Stay], configuration: RangingConfiguration) {
        guard configuration.silentRankRule.usesMovementCue, configuration.silentRankLevel != nil else { return }
        let time = snapshot.time
        let silent = snapshot.beacons.contains { !$0.isStale && time - $0.lastSeen > configuration.nearestWindow }
        if stays.contains(where: { time >= $0.start + 2 && time <= $0.end }) {
            standing.add(engine.lastMovementCue, silent: silent)
        } else {
            moving.add(engine.lastMovementCue, silent: silent)
        }
    }

    mutating func add(_ other: MovementCueCount) {
        standing.add(other.standing)
        moving.add(other.moving)
    }
}
