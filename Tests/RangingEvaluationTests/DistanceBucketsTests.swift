import Foundation
import Testing
@testable import RangingEvaluation

/// `DistanceBuckets` (the tenth round's diagnosis table): readings sorted by true distance, each
/// range miss counted on the side the truth fell.
@Suite struct DistanceBucketsTests {
    @Test func bucketsAndLabels() {
        #expect(DistanceBuckets.index(of: 0.3) == 0 && DistanceBuckets.index(of: 1) == 1 && DistanceBuckets.index(of: 3.39) == 2)
        #expect(DistanceBuckets.index(of: 3.4) == 3 && DistanceBuckets.index(of: 14.9) == 4 && DistanceBuckets.index(of: 40) == 5)
        #expect((0...5).map(DistanceBuckets.label) == ["< 1 m", "1-2 m", "2-3.4 m", "3.4-7 m", "7-15 m", "> 15 m"])
    }

    @Test func missesAreCountedOnTheSideTheTruthFell() {
        var buckets = DistanceBuckets()
        buckets.add(truth: 5, estimate: 9, range: 6...12)     // below the near end
        buckets.add(truth: 5, estimate: 4, range: 2...4.5)    // above the far end
        buckets.add(truth: 5, estimate: 5.5, range: 3...8)    // held
        buckets.add(truth: 5, estimate: 7, range: nil)        // no range: an error, not a miss
        buckets.add(truth: 0.5, estimate: 0.5, range: 0.4...0.6)
        let far = buckets.buckets[3]
        #expect(far.ranged == 3 && far.missedBelow == 1 && far.missedAbove == 1 && far.coverage == 1.0 / 3)
        #expect(far.medianError == 1.5)                       // errors 4, 1, 0.5, 2
        var merged = DistanceBuckets()
        merged.add(buckets)
        merged.add(buckets)
        #expect(merged.buckets[3].ranged == 6 && merged.buckets[0].errors == [0, 0])
        #expect(merged.share(\.missedBelow) == 2.0 / 8 && merged.share(\.missedAbove) == 2.0 / 8)
    }
}
