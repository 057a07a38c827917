import Foundation
import Ranging

/// `beacontop-bench posterior-table [none|A|B|C] [COUNT]`: builds the default model's posterior
/// table (what an engine builds once per key) COUNT times (default 20), uncached, with the far
/// slope named (`PathLossFarSlope`'s tenth-round variants, or none as shipped); prints the best
/// and median build time.
enum PosteriorTableBenchmark {
    static func run(_ arguments: [String]) {
        let variants: [String: PathLossFarSlope?] = ["none": nil, "A": .variantA, "B": .variantB, "C": .variantC]
        var prior = PathLossPrior.herald
        prior.farSlope = arguments.first.flatMap { variants[$0] } ?? nil
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 20 : 20
        let key = prior.key(exponent: RangingConfiguration().pathLossExponent, probability: 0.8)
        var times: [Double] = []
        var checksum = 0.0
        let clock = ContinuousClock()
        for _ in 0..<max(count, 1) {
            let start = clock.now
            let table = PathLossPosteriorTable(key)
            let elapsed = clock.now - start
            checksum += table.estimate(x: 25).distance
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        print(String(format: "posterior table (far slope %@): best %.2f ms, median %.2f ms over %d builds (checksum %.4f)",
                     arguments.first ?? "none", times[0] * 1000, times[times.count / 2] * 1000, times.count, checksum))
    }
}
