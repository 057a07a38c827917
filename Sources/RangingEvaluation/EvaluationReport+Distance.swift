import Foundation

extension EvaluationReport {
    /// beacontop's median distance error and its range's misses by true distance, one block of rows
    /// per world (`DistanceBuckets`; docs/ranging-history.md, "Tenth round").
    public static func distanceBuckets(_ worlds: [WorldEvaluation]) -> String {
        var text = "| world | true distance | readings | median error (m) | range held | truth below the range | truth above the range |\n"
        text += "|---|---|---|---|---|---|---|\n"
        for world in worlds {
            for (i, bucket) in world.beacontop.byDistance.buckets.enumerated() where !bucket.errors.isEmpty {
                text += "| \(world.kind.rawValue) | \(DistanceBuckets.label(i)) | \(bucket.errors.count) | \(f(bucket.medianError)) | "
                    + "\(percent(bucket.coverage)) | \(percent(bucket.belowShare)) | \(percent(bucket.aboveShare)) |\n"
            }
            let all = world.beacontop
            text += "| \(world.kind.rawValue) | all | \(all.errors.count) | \(f(all.medianError)) | \(percent(all.coverage)) | "
                + "\(percent(all.byDistance.share(\.missedBelow))) | \(percent(all.byDistance.share(\.missedAbove))) |\n"
        }
        return text
    }
}

extension DistanceBuckets {
    /// A kind of miss's share of every ranged reading.
    func share(_ misses: KeyPath<Bucket, Int>) -> Double? {
        let ranged = buckets.reduce(0) { $0 + $1.ranged }
        return ranged == 0 ? nil : Double(buckets.reduce(0) { $0 + $1[keyPath: misses] }) / Double(ranged)
    }
}
