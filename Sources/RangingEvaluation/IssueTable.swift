import Ranging

/// The table issue 9 was filed with (median error in metres per run, and the share of ticks
/// beacontop's former range held the truth), kept so the evaluation can show it reproduces it.
public enum IssueTable {
    public struct Row: Sendable {
        public var runningAverage: Double
        public var arma: Double
        public var roomAssistant: Double
        public var espresense: Double
        public var beacontop: Double
        public var rangeHeld: Double
    }

    public static let rows: [String: Row] = [
        "20210106-1501-A": Row(runningAverage: 0.60, arma: 0.60, roomAssistant: 0.70, espresense: 0.68, beacontop: 0.78, rangeHeld: 0.34),
        "20210110-2247-A": Row(runningAverage: 0.61, arma: 0.61, roomAssistant: 0.40, espresense: 0.39, beacontop: 0.61, rangeHeld: 0.52),
        "20210111-1015-A": Row(runningAverage: 0.42, arma: 0.37, roomAssistant: 1.00, espresense: 0.52, beacontop: 0.71, rangeHeld: 0.36),
        "20210112-2303-B": Row(runningAverage: 0.76, arma: 0.80, roomAssistant: 0.80, espresense: 0.75, beacontop: 0.74, rangeHeld: 0.36),
        "20210305-0958-A": Row(runningAverage: 0.23, arma: 0.24, roomAssistant: 0.26, espresense: 0.30, beacontop: 0.29, rangeHeld: 0.50),
        "20210311-0901-A": Row(runningAverage: 0.53, arma: 0.52, roomAssistant: 0.56, espresense: 0.48, beacontop: 0.74, rangeHeld: 0.32),
        "pixel2-pixel3-0-340cm": Row(runningAverage: 0.60, arma: 0.60, roomAssistant: 0.42, espresense: 0.44, beacontop: 0.53, rangeHeld: 0.39),
    ]

    /// beacontop as the issue measured it: adaptive filter, log-distance with n = 2, the range the
    /// filtered RSSI plus and minus one deviation (the filter's and 3 dB of shadowing), the filter's
    /// noise floor the 4 dB it had then (the default is now learned).
    public static var formerConfiguration: RangingConfiguration {
        var configuration = RangingConfiguration()
        configuration.adaptiveFilter.noiseFloor = 4
        configuration.distanceModel = .logDistance
        configuration.pathLossExponent = 2
        configuration.shadowingDeviation = 3
        configuration.rangeProbability = 0.682_689_492 // plus and minus one standard deviation
        return configuration
    }

    /// Each pipeline of the issue's table on `run`, as this evaluation computes it: every scored
    /// tick it answered (the issue's protocol), no common-tick mask.
    public static func reproduce(_ run: HeraldRun) -> (row: Row, beacontopAnswered: Double)? {
        guard let power = run.measuredPowerAtOneMetre else { return nil }
        func error(_ kind: FieldPipeline.Kind) -> Double {
            var pipeline = FieldPipeline(kind, measuredPower: power)
            return RunScore(RunProtocol.trace(run, pipeline: &pipeline)).medianError
        }
        var engine = EnginePipeline(configuration: formerConfiguration, measuredPower: power)
        let trace = RunProtocol.trace(run, pipeline: &engine)
        let score = RunScore(trace)
        // The issue counted a tick with no estimate as a tick whose range missed.
        let held = Double(score.covered) / Double(max(1, trace.truths.count))
        return (Row(runningAverage: error(.androidRunningAverage), arma: error(.androidARMAUntruncated),
                    roomAssistant: error(.roomAssistantIssue), espresense: error(.espresense),
                    beacontop: score.medianError, rangeHeld: held), score.answeredShare)
    }
}
