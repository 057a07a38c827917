#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64, as used to seed the
/// xoshiro family): 64 bits of state, passes BigCrush, and is the same on every platform, so a
/// simulation seed names one run forever. The standard library's generator is unseedable, and
/// its `Double.random(in:using:)` is not promised to stay the same across Swift versions, so the
/// helpers below draw floating-point values from the raw bits themselves.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one independent purpose (planning, radio, ...) derived from a run's seed.
    public static func stream(_ seed: UInt64, purpose: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (purpose &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }

    /// Uniform in [0, 1): the top 53 bits as the mantissa.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Standard normal by the Box-Muller transform (one of the pair is used: simpler state, and
    /// the generator is cheap).
    public mutating func gaussian() -> Double {
        let u1 = 1 - unit() // (0, 1]: log stays finite
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Exponentially distributed waiting time for events at `rate` per unit time.
    public mutating func exponential(rate: Double) -> Double {
        -log(1 - unit()) / rate
    }

    /// Uniform integer in 0..<bound.
    public mutating func index(below bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }
}
