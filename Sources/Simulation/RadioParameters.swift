/// Everything that makes the simulated radio imperfect, with the values the museum walk of
/// issue 3 describes. Units are dB, dBm, seconds and metres.
///
/// Received power of one packet (dBm), before loss, quantisation and clamping:
///
///     P1m_true - 10 n log10(d) + S(t) + F - B(theta) - D(t)
///
/// - `P1m_true`: the beacon's real power at 1 m = the claimed measured power + a calibration
///   error drawn once per beacon, uniform in +/-`calibrationError`.
/// - `n`: path-loss exponent drawn once per beacon from `pathLossExponent` (log-distance model).
/// - `S(t)`: log-normal shadowing, a Gauss-Markov (Ornstein-Uhlenbeck) process per beacon with
///   standard deviation `shadowingSigma` and correlation time `shadowingCorrelationTime`.
/// - `F`: per-packet fast fading, the power of a Rician channel with factor `ricianK` in dB,
///   centred so its mean in dB is 0 (then the measured power is the mean RSSI at 1 m, which is
///   what a calibration measures). `ricianK = 0` is Rayleigh.
/// - `B(theta)`: the walker's body between phone and beacon, `bodyLoss * ((1 - cos theta) / 2)^2`
///   where theta is the angle between the walker's facing direction and the beacon: 0 in front,
///   a quarter at the side, all of it straight behind.
/// - `D(t)`: a deep fade (someone stepping into the path, a null): episodes arriving at
///   `deepFadeRate` per second per beacon, each `deepFadeDuration` long and `deepFadeDepth` deep.
///
/// A packet is then lost with probability `packetLoss` (collisions, the scanner on another
/// channel) or when below `sensitivity`; a received one is rounded to integer dBm and clamped to
/// `rssiRange`, as controllers report it (Core 5.4 Vol 4 Part E 7.7.65.2, RSSI).
public struct RadioParameters: Sendable, Hashable {
    public var pathLossExponent: ClosedRange<Double>
    public var calibrationError: Double
    public var shadowingSigma: Double
    public var shadowingCorrelationTime: Double
    public var ricianK: Double
    public var fastFading: Bool
    public var bodyLoss: Double
    public var deepFadeRate: Double
    public var deepFadeDepth: ClosedRange<Double>
    public var deepFadeDuration: ClosedRange<Double>
    public var packetLoss: Double
    public var sensitivity: Double
    public var rssiRange: ClosedRange<Int>
    /// The spec's advDelay upper bound (Core 5.4 Vol 6 Part B 4.4.2.2.1): 10 ms.
    public var maxAdvertisingDelay: Double

    public init(
        pathLossExponent: ClosedRange<Double> = 2.0...2.5, calibrationError: Double = 3,
        shadowingSigma: Double = 4, shadowingCorrelationTime: Double = 3,
        ricianK: Double = 2, fastFading: Bool = true, bodyLoss: Double = 12,
        deepFadeRate: Double = 1.0 / 30, deepFadeDepth: ClosedRange<Double> = 10...20,
        deepFadeDuration: ClosedRange<Double> = 0.3...1.5, packetLoss: Double = 0.1,
        sensitivity: Double = -98, rssiRange: ClosedRange<Int> = -100...(-20), maxAdvertisingDelay: Double = 0.010
    ) {
        self.pathLossExponent = pathLossExponent
        self.calibrationError = calibrationError
        self.shadowingSigma = shadowingSigma
        self.shadowingCorrelationTime = shadowingCorrelationTime
        self.ricianK = ricianK
        self.fastFading = fastFading
        self.bodyLoss = bodyLoss
        self.deepFadeRate = deepFadeRate
        self.deepFadeDepth = deepFadeDepth
        self.deepFadeDuration = deepFadeDuration
        self.packetLoss = packetLoss
        self.sensitivity = sensitivity
        self.rssiRange = rssiRange
        self.maxAdvertisingDelay = maxAdvertisingDelay
    }

    /// The museum walk of issue 3: ~4 dB shadowing changing over seconds, per-packet fading,
    /// occasional deep fades, body blocking, measured power off by up to 3 dB.
    public static let museum = RadioParameters()

    /// A busy exhibition hall: more people in the way (shadowing, deep fades) and more
    /// colliding advertisers (loss).
    public static let tradeShow = RadioParameters(shadowingSigma: 5, deepFadeRate: 1.0 / 15, packetLoss: 0.15)

    /// No randomness but the schedule: the path-loss law alone, for checking geometry.
    public static let ideal = RadioParameters(
        pathLossExponent: 2.0...2.0, calibrationError: 0, shadowingSigma: 0, ricianK: 0, fastFading: false,
        bodyLoss: 0, deepFadeRate: 0, packetLoss: 0, sensitivity: -200, rssiRange: -127...20
    )
}
