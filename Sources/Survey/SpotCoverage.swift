import Foundation
import Ranging

/// What a spot's readings say about coverage there, with the thresholds that decide it
/// (docs/survey.md "Coverage").
public struct CoverageRule: Sendable, Equatable {
    /// dBm a beacon's median must reach for the spot to be covered. -80 dBm: the technician holds the
    /// phone in the open, while a visitor's phone is in a hand or pocket with a body in the way,
    /// which costs up to about 15 dB at 2.4 GHz (Januszkiewicz, Sensors 2018, 18(10) 3412);
    /// -80 dBm then becomes -90 to -95, where phones stop hearing beacons reliably.
    public var threshold = -80.0
    /// dB within which two exhibits' levels make the nearest exhibit ambiguous: the nearest-exhibit
    /// rule counts no lead of less than its hysteresis as evidence, so at such a spot whichever
    /// exhibit held before stays nearest, and the answer depends on the visitor's path.
    public var ambiguityMargin: Double
    /// The default path-loss exponent the nearest-exhibit rule scales levels to: a beacon with a
    /// catalog exponent of its own has its level scaled by this over its own, so a dB of lead is the
    /// same distance ratio for every beacon.
    public var levelExponent: Double

    public init(ranging: RangingConfiguration = RangingConfiguration()) {
        ambiguityMargin = ranging.nearestHysteresis
        levelExponent = ranging.pathLossExponent
    }

    /// A reading's level as the nearest-exhibit rule compares it (docs/ranging.md "Nearest
    /// exhibit"): the median relative to the 1 m power, scaled to `levelExponent`.
    public func level(_ reading: SpotReading) -> Double {
        let level = reading.median - reading.measuredPower
        // As the engine: only a beacon's own exponent rescales (x * n / n is not always x).
        return reading.exponent == levelExponent ? level : level * levelExponent / reading.exponent
    }
}

/// One sample's coverage: the strongest beacon and the nearest exhibit it would give.
public struct SpotCoverage: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        /// A beacon reaches the threshold and the nearest exhibit (if any) is clear.
        case covered
        /// Two exhibits are near and within the ambiguity margin of each other.
        case ambiguous
        /// No beacon reaches the threshold.
        case noCoverage = "no-coverage"
    }

    public var status: Status
    /// The beacon with the highest median RSSI.
    public var strongest: SpotReading?
    /// The exhibit that would be nearest: highest level among the candidates (every exhibit heard,
    /// as in the monitor, where nobody waits for a distance floor); nil when none is heard.
    public var nearest: String?
    /// The runner-up candidate and its lead over it in dB, when there is one.
    public var runnerUp: String?
    public var lead: Double?

    public init(status: Status, strongest: SpotReading?, nearest: String?, runnerUp: String?, lead: Double?) {
        self.status = status
        self.strongest = strongest
        self.nearest = nearest
        self.runnerUp = runnerUp
        self.lead = lead
    }

    /// Assesses a sample. With `exhibits` (the plan's ids) only those are nearest candidates, as in
    /// the monitor with a catalog; with none, every beacon is.
    public init(_ sample: SurveySample, exhibits: Set<String>, rule: CoverageRule = CoverageRule()) {
        let strongest = sample.readings.max { ($0.median, $1.id) < ($1.median, $0.id) }
        let candidates = sample.readings
            .filter { exhibits.isEmpty || exhibits.contains($0.id) }
            .map { (id: $0.id, level: rule.level($0)) }
            .sorted { ($1.level, $0.id) < ($0.level, $1.id) }
        let lead = candidates.count >= 2 ? candidates[0].level - candidates[1].level : nil
        let status: Status
        if strongest.map({ $0.median < rule.threshold }) ?? true {
            status = .noCoverage
        } else if let lead, lead <= rule.ambiguityMargin {
            status = .ambiguous
        } else {
            status = .covered
        }
        self.init(
            status: status, strongest: strongest, nearest: candidates.first?.id,
            runnerUp: candidates.count >= 2 ? candidates[1].id : nil, lead: lead.map { ($0 * 10).rounded() / 10 }
        )
    }
}

extension SurveyPlan {
    /// The ids that are nearest candidates in coverage: the plan's beacons.
    public var exhibitIDs: Set<String> { Set(beacons.map(\.id)) }
}
