/// The simulated venue's radio, per packet from a visitor's badge to a scanner (dBm):
///
///     P1m_true - 10 n log10(d) - walls * wallLoss + S(t) + F - B(theta) + offset
///
/// with `d` the 3-D distance (scanner on a 2.4 m ceiling, badge at 1.2 m), walls the room
/// boundaries between them, `S` Gauss-Markov shadowing per badge and scanner, `F` Rician fading,
/// `B` the wearer's body, and `offset` the scanner's receiver (drawn once in +-`offsetRange`: units
/// of one model differ by 10 dB in the field). Packets are lost at `packetLoss` or below
/// `sensitivity`. Units are dB, dBm, seconds and metres.
public struct VenueRadio: Sendable, Hashable {
    public var pathLossExponent: ClosedRange<Double>
    public var calibrationError: Double
    public var wallLoss: Double
    public var shadowingSigma: Double
    public var shadowingCorrelationTime: Double
    public var ricianK: Double
    public var bodyLoss: Double
    public var offsetRange: Double
    public var packetLoss: Double
    public var sensitivity: Double

    public init(
        pathLossExponent: ClosedRange<Double> = 2.0...2.6, calibrationError: Double = 3, wallLoss: Double = 5,
        shadowingSigma: Double = 4, shadowingCorrelationTime: Double = 3, ricianK: Double = 2, bodyLoss: Double = 10,
        offsetRange: Double = 8, packetLoss: Double = 0.15, sensitivity: Double = -97
    ) {
        self.pathLossExponent = pathLossExponent
        self.calibrationError = calibrationError
        self.wallLoss = wallLoss
        self.shadowingSigma = shadowingSigma
        self.shadowingCorrelationTime = shadowingCorrelationTime
        self.ricianK = ricianK
        self.bodyLoss = bodyLoss
        self.offsetRange = offsetRange
        self.packetLoss = packetLoss
        self.sensitivity = sensitivity
    }

    /// Rooms with plasterboard walls (5 dB each), a busy floor.
    public static let rooms = VenueRadio()
    /// An open hall of booths: thin partitions (2 dB), more people in the way.
    public static let openHall = VenueRadio(wallLoss: 2, shadowingSigma: 5, bodyLoss: 12, packetLoss: 0.2)
}
