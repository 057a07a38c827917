import Foundation

/// xoshiro256** (Blackman and Vigna), seeded through SplitMix64's finaliser: the evaluation's worlds
/// draw from their own generator, so they share no code with the simulator they are checked beside.
struct WorldRandom: Sendable {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64, stream: UInt64) {
        var z = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &* 0xC2B2_AE3D_27D4_EB4F
        func mix() -> UInt64 {
            z &+= 0x9E37_79B9_7F4A_7C15
            var x = z
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            return x ^ (x >> 31)
        }
        s = (mix(), mix(), mix(), mix())
    }

    mutating func next() -> UInt64 {
        let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3 << 45 | s.3 >> 19
        return result
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / 9_007_199_254_740_992 }

    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Standard normal (Marsaglia's polar method).
    mutating func normal() -> Double {
        while true {
            let u = 2 * unit() - 1, v = 2 * unit() - 1
            let s = u * u + v * v
            if s > 0, s < 1 { return u * (-2 * log(s) / s).squareRoot() }
        }
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
