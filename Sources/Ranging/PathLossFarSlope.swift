import Foundation

/// The default model's second slope: beyond `breakpoint` the loss grows with an exponent of its
/// own, the dual-slope log-distance form of indoor propagation (docs/ranging-history.md, "Tenth round").
/// Every learned number of the model comes from phones 0.25-3.4 m apart; beyond that the runs
/// say nothing, so these values are fixed from published indoor measurements, never learned.
///
///     x = 10 n log10(d_b) + 10 m log10(d / d_b) + e + b     for d > d_b
///     m ~ N(exponent, spread²), correlated with the near exponent n by `correlation`
public struct PathLossFarSlope: Sendable, Hashable {
    /// Where the second slope starts (m): the rig's reach, 3.4 m, the farthest distance any
    /// learned number saw. Below it the runs measured the phones' own slope, which the model keeps.
    public var breakpoint: Double
    /// The far exponent's mean: ITU-R P.1238's distance power loss coefficient N / 10 for
    /// residential (28), office (30) and commercial (22) buildings at 1.8-2.0 GHz, the band nearest
    /// 2.4 GHz that gives all three: their mean, 2.67.
    public var exponent: Double
    /// The far exponent's spread: how much venues differ. The three environments' values differ by
    /// 0.42; a venue that is none of them is a new draw, so that widened as the near spread is for
    /// the next phone (Student's t of 2 degrees of freedom, x1.66): 0.69.
    public var spread: Double
    /// How the far exponent's deviation follows the near one's: 0 independent (the near slope is
    /// the phone pair's, the far one the room's), 1 fully correlated.
    public var correlation: Double

    public init(breakpoint: Double, exponent: Double, spread: Double, correlation: Double) {
        self.breakpoint = breakpoint
        self.exponent = exponent
        self.spread = spread
        self.correlation = correlation
    }

    /// ITU-R P.1238's 28, 30 and 22 over ten: mean and sample deviation.
    static let ituExponent = (2.8 + 3.0 + 2.2) / 3
    static let ituSpread = 0.416_333

    /// The tenth round's three planned variants (docs/ranging-history.md): A, the three environments'
    /// spread, independent; B, that spread widened to the next venue (x1.66), independent; C, B
    /// fully correlated with the near exponent.
    public static let variantA = PathLossFarSlope(breakpoint: 3.4, exponent: ituExponent, spread: ituSpread, correlation: 0)
    public static let variantB = PathLossFarSlope(breakpoint: 3.4, exponent: ituExponent, spread: 0.693_066, correlation: 0)
    public static let variantC = PathLossFarSlope(breakpoint: 3.4, exponent: ituExponent, spread: 0.693_066, correlation: 1)

    /// The mean of x and its variance from the two exponents' uncertainty (dB, dB²) at log10 d = `l`
    /// for a near exponent `near` with spread `nearSpread`; nil (one slope) for distances up to the
    /// breakpoint.
    func line(l: Double, near: Double, nearSpread: Double) -> (mean: Double, variance: Double)? {
        let lb = log10(breakpoint)
        guard l > lb else { return nil }
        let (a, b) = (10 * nearSpread * lb, 10 * spread * (l - lb))
        return (10 * near * lb + 10 * exponent * (l - lb), a * a + b * b + 2 * correlation * a * b)
    }
}
