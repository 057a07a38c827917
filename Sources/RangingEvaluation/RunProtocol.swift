import Foundation

/// The protocol for a real run: the pipeline is fed every sample in time order; every 5 s of
/// capture time (ticks on multiples of 5 s, each after the samples stamped at or before it) it is
/// asked for a distance; the truth is the distance of the last sample fed. Ticks whose truth lies in
/// 0.25-3.4 m are scored.
public enum RunProtocol {
    public static let tick = 5.0
    public static let scoredDistances: ClosedRange<Double> = 0.25...3.4

    /// Runs `pipeline` over `run`: its answer at every scored tick.
    public static func trace<P: RangingPipeline>(_ run: HeraldRun, pipeline: inout P) -> RunTrace {
        var trace = RunTrace(truths: [], estimates: [])
        let samples = run.samples
        guard let first = samples.first else { return trace }
        var next = ((first.time / tick).rounded(.down) + 1) * tick
        var index = 0
        while index < samples.count {
            while index < samples.count, samples[index].time <= next {
                pipeline.add(rssi: samples[index].rssi, at: samples[index].time)
                index += 1
            }
            let truth = samples[index - 1].distance
            // Unscored ticks still ask: a pipeline's state may depend on being asked (window expiry).
            let estimate = pipeline.estimate(at: next)
            if scoredDistances.contains(truth) {
                trace.truths.append(truth)
                trace.estimates.append(estimate)
            }
            next += tick
        }
        return trace
    }
}

/// One pipeline's answers at a run's scored ticks.
public struct RunTrace: Sendable {
    public var truths: [Double]
    /// Nil where the pipeline showed nothing (beacontop: silent for longer than `staleAfter`).
    public var estimates: [DistanceEstimate?]

    /// Scored ticks this trace answered.
    public var answered: [Bool] { estimates.map { $0 != nil } }
}

/// A pipeline's figures over a set of scored ticks (usually the ticks every pipeline answered, so
/// all are judged on the same moments).
public struct RunScore: Sendable {
    /// Absolute errors (m).
    public var errors: [Double]
    /// Ticks where the stated range held the truth, and ticks with a range at all.
    public var covered: Int
    public var ranged: Int
    /// `sqrt(upper / lower)` of each range: the range is its geometric centre times or divided by it.
    public var widths: [Double]
    /// Scored ticks the pipeline answered, of all scored ticks of the run.
    public var answeredShare: Double

    /// - Parameter mask: the ticks to score (nil: every tick the trace answered).
    public init(_ trace: RunTrace, mask: [Bool]? = nil) {
        errors = []
        covered = 0
        ranged = 0
        widths = []
        var answered = 0
        for index in trace.truths.indices {
            guard let estimate = trace.estimates[index] else { continue }
            answered += 1
            if let mask, !mask[index] { continue }
            let truth = trace.truths[index]
            errors.append(abs(estimate.distance - truth))
            if let range = estimate.range, range.lowerBound > 0 {
                ranged += 1
                if range.contains(truth) { covered += 1 }
                widths.append((range.upperBound / range.lowerBound).squareRoot())
            }
        }
        answeredShare = trace.truths.isEmpty ? 0 : Double(answered) / Double(trace.truths.count)
    }

    public var medianError: Double { median(errors) ?? .nan }
    public var coverage: Double? { ranged == 0 ? nil : Double(covered) / Double(ranged) }
    public var medianWidthFactor: Double? { median(widths) }
}
