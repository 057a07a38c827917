#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-packet fast fading: the power gain of a Rician channel (a line-of-sight component of
/// relative power K plus scattered Rayleigh power 1), in dB, centred on a 0 dB mean.
///
/// Each packet of an advertising event lands on one of three channels 2 MHz wide and hops
/// between events, so successive packets see independent multipath: independent draws.
public struct FastFading: Sendable {
    public let k: Double
    /// Mean of the raw dB gain, subtracted so the fading does not bias the mean RSSI.
    public let meanOffset: Double

    public init(ricianK k: Double) {
        self.k = max(0, k)
        // The mean of 10 log10 |h|^2 has no closed form for K > 0; estimate it once from a fixed
        // seed (deterministic, 65536 draws: standard error ~0.02 dB).
        var rng = SplitMix64(seed: 0xFAD1)
        var sum = 0.0
        let count = 65_536
        for _ in 0..<count { sum += Self.rawGain(k: self.k, rng: &rng) }
        meanOffset = sum / Double(count)
    }

    /// One packet's fading in dB (mean 0).
    public func sample(rng: inout SplitMix64) -> Double {
        Self.rawGain(k: k, rng: &rng) - meanOffset
    }

    private static func rawGain(k: Double, rng: inout SplitMix64) -> Double {
        let los = (k / (k + 1)).squareRoot()
        let scatter = (1 / (2 * (k + 1))).squareRoot()
        let i = los + scatter * rng.gaussian()
        let q = scatter * rng.gaussian()
        return 10 * log10(max(i * i + q * q, 1e-12))
    }
}
