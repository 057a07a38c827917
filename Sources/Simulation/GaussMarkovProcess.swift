#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stationary Gauss-Markov (Ornstein-Uhlenbeck) process: zero mean, standard deviation
/// `sigma`, autocorrelation `exp(-|dt| / tau)`. It models log-normal shadowing that drifts over
/// seconds (people moving, the walker turning) rather than jumping packet to packet.
///
/// Advancing uses the exact discretisation, so the statistics do not depend on how irregularly
/// it is sampled (advertising events are irregular: advDelay, loss):
/// `x' = a x + sigma sqrt(1 - a^2) N(0, 1)`, `a = exp(-dt / tau)`.
public struct GaussMarkovProcess: Sendable {
    public let sigma: Double
    public let tau: Double
    public private(set) var value: Double
    public private(set) var time: Double

    /// Starts at `time` with a draw from the stationary distribution.
    public init(sigma: Double, tau: Double, time: Double, rng: inout SplitMix64) {
        self.sigma = sigma
        self.tau = tau
        self.time = time
        value = sigma * rng.gaussian()
    }

    /// The value at `newTime` (not before the last one asked for).
    public mutating func advance(to newTime: Double, rng: inout SplitMix64) -> Double {
        let dt = max(0, newTime - time)
        time = max(time, newTime)
        guard sigma > 0 else { return 0 }
        let a = tau > 0 ? exp(-dt / tau) : 0
        value = a * value + sigma * (1 - a * a).squareRoot() * rng.gaussian()
        return value
    }
}
