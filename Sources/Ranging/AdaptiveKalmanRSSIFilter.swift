/// beacontop's default RSSI filter: a one-state Kalman filter (random-walk RSSI) that is slow and
/// steady while the beacon stays put, and restarts on the new level as soon as a two-sided CUSUM on
/// its normalised innovations says the level has moved.
///
/// Why: a fixed window cannot be both steady and quick. With 4 dB per-packet noise, a 0.10 m
/// 10th-90th percentile spread at 1 m needs roughly 150 samples of averaging (15 s at 10 Hz), while
/// following a 1 m -> 5 m move within 2 s needs the estimate to move 7 dB within 20 samples. A
/// random walk whose process noise is tiny gives the first; the change detector gives the second:
/// persistently one-sided innovations (not single deep fades, which are clipped) push the CUSUM over
/// its threshold within a few packets of a real move; once the change has lasted
/// `minimumChangeDuration` (1 s, so a second-long deep fade is not a move) the estimate is re-seeded from the mean of
/// the samples since the change began (the CUSUM run; once a run is longer than `restartSamples`
/// the mean weights its latest samples more, so a slow ramp is not followed with a lag), after
/// which it averages as 1/n again. The filter is a handful of numbers: no buffers, no allocation.
///
/// - Innovations are clipped to `innovationClip` standard deviations (Huber) so deep fades and
///   body-blocking blips pull the estimate little.
/// - The per-packet noise is learnt online (mean absolute innovation, converted to a standard
///   deviation), bounded to `noiseFloor...noiseCeiling` (3...12 dB), so the detector keeps its
///   false-alarm rate on quiet and on noisy links alike. The floor matters on real phones, which
///   read whole dBm with under 1 dB of packet noise but swing 5-10 dB with multipath: too low a
///   floor makes the detector chase every swing. It is learned (`RangingEvaluation.ModelLearning`:
///   chosen from 1, 2, 3, 4 dB by the criterion on the HERALD runs, leave-one-run-out;
///   3 dB on all seven, docs/ranging.md has each fold's).
/// - Process noise is per second of capture time, so gaps and irregular rates are handled.
public struct AdaptiveKalmanRSSIFilter: RSSIFilter {
    public struct Parameters: Sendable, Equatable {
        /// Random-walk variance growth of the true RSSI, dB² per second (steadiness vs drift tracking).
        public var processNoisePerSecond: Double = 0.002
        /// Initial per-packet noise standard deviation, dB, until it is learnt.
        public var initialNoise: Double = 4
        public var noiseFloor: Double = 3
        public var noiseCeiling: Double = 12
        /// Weight of each innovation in the noise estimate (about 1/samples remembered).
        public var noiseLearningRate: Double = 0.01
        /// CUSUM slack, in standard deviations: drifts smaller than this never trigger.
        public var cusumSlack: Double = 0.75
        /// CUSUM threshold, in standard deviations: higher means fewer false restarts, slower reaction.
        /// Chosen at 10 adverts/s (`CUSUMThreshold.referenceRate`); see `thresholdRule`.
        public var cusumThreshold: Double = 8
        /// Innovations beyond this many standard deviations are clipped (update and CUSUM).
        public var innovationClip: Double = 3
        /// The re-seeding mean remembers about this many of the run's latest samples.
        public var restartSamples: Int = 10
        /// A change must have lasted this long (s of capture time) before the estimate restarts,
        /// so a deep fade of a second (someone stepping into the path) is not taken for a move.
        /// Measured on the Simulation museum walk (12 seeds): stays under 97% fell from 20 to 17
        /// and changes per move from 1.17 to 1.12; the 1 m -> 5 m step is then followed in 1.0 s.
        public var minimumChangeDuration: Double = 1.0
        /// What the filter reports: the Kalman filter's mean (the default), or the median of the
        /// packets since the last change it detected (`SegmentMedian`): the same statistic as a
        /// technician's median calibration, robust to the fades that skew RSSI low. Measured in
        /// docs/ranging-history.md ("What was tried").
        public var level: Level = .kalmanMean
        /// Whether `cusumThreshold` holds per sample (the default) or is lowered for a beacon heard
        /// less often than `CUSUMThreshold.referenceRate` to keep its false restarts per second,
        /// down to `innovationClip` at most, so no single packet confirms a move (`CUSUMThreshold`).
        /// Last, beside `level`: the two one-byte enums share its padding (the filter is in every
        /// track and copied with it; a larger struct cost the replay measurably).
        public var thresholdRule: ThresholdRule = .perSample

        public init() {}
    }

    public enum ThresholdRule: String, Sendable, Equatable, CaseIterable {
        case perSample = "per-sample"
        case perSecond = "per-second"
    }

    public enum Level: String, Sendable, Equatable, CaseIterable {
        case kalmanMean = "mean"
        case segmentMedian = "median"
    }

    public let parameters: Parameters
    private var level: Double = 0
    private var variance: Double = 0
    private var noise: Double
    private var meanAbsoluteInnovation: Double
    private var lastTime: Double = 0
    private var started = false
    /// Under `.perSecond`: gaps seen (up to `restartSamples`) and their mean, s. Small types, in
    /// `started`'s padding, so the filter is no larger than without them.
    private var intervals: UInt8 = 0
    private var meanInterval: Float = 0
    private var upward = 0.0
    private var downward = 0.0
    private var upwardRun = 0
    private var downwardRun = 0
    private var upwardMean = 0.0
    private var downwardMean = 0.0
    private var upwardSince = 0.0
    private var downwardSince = 0.0
    private var segment: SegmentMedian?

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        noise = parameters.initialNoise
        meanAbsoluteInnovation = parameters.initialNoise / 1.2533
        if parameters.level == .segmentMedian { segment = SegmentMedian() }
    }

    public var estimateVariance: Double? { started ? variance : nil }

    /// The learnt per-packet noise standard deviation, dB.
    public var learntNoise: Double { noise }

    public mutating func add(_ rssi: Double, at time: Double) {
        segment?.add(rssi)
        guard started else {
            started = true
            level = rssi
            variance = noise * noise
            lastTime = time
            return
        }
        let elapsed = max(0, time - lastTime)
        lastTime = max(lastTime, time)
        if parameters.thresholdRule == .perSecond {
            intervals = UInt8(min(Int(intervals) + 1, min(max(1, parameters.restartSamples), 255)))
            meanInterval = Float(Self.runMean(Double(meanInterval), adding: elapsed, run: Int(intervals), memory: parameters.restartSamples))
        }
        variance += parameters.processNoisePerSecond * elapsed
        let noiseVariance = noise * noise
        let innovationVariance = variance + noiseVariance
        let spread = innovationVariance.squareRoot()
        let innovation = rssi - level
        let clipped = min(max(innovation, -parameters.innovationClip * spread), parameters.innovationClip * spread)
        let normalised = clipped / spread

        upward = max(0, upward + normalised - parameters.cusumSlack)
        downward = max(0, downward - normalised - parameters.cusumSlack)
        upwardRun = upward > 0 ? upwardRun + 1 : 0
        downwardRun = downward > 0 ? downwardRun + 1 : 0
        if upwardRun == 1 { upwardSince = time }
        if downwardRun == 1 { downwardSince = time }
        upwardMean = Self.runMean(upwardMean, adding: rssi, run: upwardRun, memory: parameters.restartSamples)
        downwardMean = Self.runMean(downwardMean, adding: rssi, run: downwardRun, memory: parameters.restartSamples)

        // Under `.perSecond`, the threshold matching the beacon's measured rate, worked out only
        // when the evidence passes the floor (so not on most packets). Inline: a method here cost
        // the replay a copy of the filter per packet.
        var threshold = parameters.cusumThreshold
        if parameters.thresholdRule == .perSecond, max(upward, downward) > parameters.innovationClip, meanInterval > 0 {
            threshold = CUSUMThreshold.matchingFalseAlarmsPerSecond(
                rate: 1 / Double(meanInterval), slack: parameters.cusumSlack, reference: parameters.cusumThreshold,
                referenceRate: CUSUMThreshold.referenceRate, floor: parameters.innovationClip)
        }
        let upReady = upward > threshold && time - upwardSince >= parameters.minimumChangeDuration
        let downReady = downward > threshold && time - downwardSince >= parameters.minimumChangeDuration
        if upReady || downReady {
            let up = upReady
            let count = min(max(up ? upwardRun : downwardRun, 1), max(1, parameters.restartSamples))
            level = up ? upwardMean : downwardMean
            variance = noiseVariance / Double(count)
            segment?.restart(keepingLast: up ? upwardRun : downwardRun)
            upward = 0
            downward = 0
            upwardRun = 0
            downwardRun = 0
        } else {
            let gain = variance / innovationVariance
            level += gain * clipped
            variance *= 1 - gain
        }

        // E|innovation| = sqrt(2/pi) * sqrt(P + sigma²) for Gaussian noise: learn sigma from it.
        meanAbsoluteInnovation += parameters.noiseLearningRate * (abs(clipped) - meanAbsoluteInnovation)
        let total = 1.2533 * meanAbsoluteInnovation
        let learnt = max(0, total * total - variance).squareRoot()
        noise = min(max(learnt, parameters.noiseFloor), parameters.noiseCeiling)
    }

    public mutating func estimate(at time: Double) -> Double? {
        guard started else { return nil }
        return segment?.median ?? level
    }

    public mutating func reset() {
        self = AdaptiveKalmanRSSIFilter(parameters: parameters)
    }

    /// The mean of a CUSUM run's samples: exact for the first `memory` samples, then exponentially
    /// weighted with weight 1/memory. A run of 0 means the CUSUM is at zero: no run.
    private static func runMean(_ mean: Double, adding sample: Double, run: Int, memory: Int) -> Double {
        guard run > 0 else { return 0 }
        return mean + (sample - mean) / Double(min(run, max(1, memory)))
    }
}
