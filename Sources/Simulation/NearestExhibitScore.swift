import BeaconFormats

/// Scores a ranging engine's `nearest` against a simulated walk's ground truth, the way issue 3's
/// "museum walk" target is stated:
/// - **share per stay**: of the ticks during each stay, after its first `settle` seconds (2 s),
///   the fraction whose `nearest` is the exhibit being visited (target >= 97% for every stay);
/// - **changes per move**: how often `nearest` switched from one exhibit to another over the
///   walk, divided by the number of real moves between stays (target <= 1.2; 1.0 is perfect).
///   A stretch with no nearest (walking between exhibits far apart) is not a change by itself:
///   A -> none -> B counts once, A -> none -> A not at all.
public struct NearestExhibitScore: Sendable, Equatable {
    public struct StayScore: Sendable, Equatable {
        public var exhibit: BeaconIdentity
        public var start: Double
        public var end: Double
        public var ticks: Int
        public var correct: Int
        public var share: Double { ticks == 0 ? 1 : Double(correct) / Double(ticks) }
    }

    /// One tick where `nearest` was not the visited exhibit.
    public struct Miss: Sendable, Equatable {
        public var time: Double
        public var expected: BeaconIdentity
        public var reported: BeaconIdentity?
    }

    public var stays: [StayScore]
    public var misses: [Miss]
    /// Exhibit-to-exhibit switches of `nearest` between the first stay's start and the last one's end.
    public var changes: Int
    /// Real moves: consecutive stays at different exhibits.
    public var moves: Int

    public var changesPerMove: Double { moves == 0 ? 0 : Double(changes) / Double(moves) }
    public var overallShare: Double {
        let ticks = stays.reduce(0) { $0 + $1.ticks }
        return ticks == 0 ? 1 : Double(stays.reduce(0) { $0 + $1.correct }) / Double(ticks)
    }
    public var worstStay: StayScore? { stays.min { $0.share < $1.share } }

    /// - Parameters:
    ///   - stays: the truth's stays in Unix seconds (`GroundTruth.stays`), with beacon indices
    ///     into `identities`.
    ///   - ticks: the engine's output, in time order: tick time and `nearest`.
    public init(stays truth: [Stay], identities: [BeaconIdentity], ticks: [(time: Double, nearest: BeaconIdentity?)],
                settle: Double = 2) {
        var stays: [StayScore] = []
        var misses: [Miss] = []
        for stay in truth {
            let exhibit = identities[stay.beaconIndex]
            var score = StayScore(exhibit: exhibit, start: stay.start, end: stay.end, ticks: 0, correct: 0)
            for tick in ticks where tick.time >= stay.start + settle && tick.time <= stay.end {
                score.ticks += 1
                if tick.nearest == exhibit {
                    score.correct += 1
                } else {
                    misses.append(Miss(time: tick.time, expected: exhibit, reported: tick.nearest))
                }
            }
            stays.append(score)
        }
        var changes = 0
        if let first = truth.first, let last = truth.last {
            var previous: BeaconIdentity?
            for tick in ticks where tick.time >= first.start && tick.time <= last.end {
                guard let nearest = tick.nearest else { continue }
                if let previous, previous != nearest { changes += 1 }
                previous = nearest
            }
        }
        var moves = 0
        for (a, b) in zip(truth, truth.dropFirst()) where a.beaconIndex != b.beaconIndex { moves += 1 }
        self.stays = stays
        self.misses = misses
        self.changes = changes
        self.moves = moves
    }
}
