import BeaconFormats
import Foundation
import HCI
import Ranging
import Simulation

/// Ranges a `WalkRecording` with beacontop (a real `RangingEngine`, the walk's exhibits as its
/// catalog, a tick every second) and with the field's pipelines (one per exhibit, the catalog's
/// measured power as calibration; their nearest is the exhibit with the smallest distance among
/// those heard in the last `staleAfter`, as their apps show it), and scores both on the truth:
/// `nearest` with `NearestExhibitScore` (share of stay ticks after 2 s, changes per real move),
/// distances by their median absolute error over every beacon at every tick, and beacontop's range
/// by the share of those it holds.
public struct WalkEvaluation: Sendable {
    public struct Score: Sendable {
        public var nearest: NearestExhibitScore
        public var errors: [Double]
        public var covered: Int
        public var ranged: Int
        public var widths: [Double]
        /// The errors and the range's misses by true distance.
        public var byDistance = DistanceBuckets()
        /// Each tick's time and `nearest`, in order.
        public var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        /// The movement cue's firings, under `--silent-rule moved-apart` or `changed` only.
        public var cue = MovementCueCount()

        public var medianError: Double { median(errors) ?? .nan }
        public var coverage: Double? { ranged == 0 ? nil : Double(covered) / Double(ranged) }
        public var medianWidthFactor: Double? { median(widths) }
    }

    public var beacontop: Score
    public var field: [FieldPipeline.Kind: Score]

    public init(_ walk: WalkRecording, configuration: RangingConfiguration = RangingConfiguration(),
                field kinds: [FieldPipeline.Kind] = []) {
        beacontop = Self.engine(walk, configuration: configuration)
        var field: [FieldPipeline.Kind: Score] = [:]
        for kind in kinds { field[kind] = Self.pipeline(kind, walk: walk, staleAfter: configuration.staleAfter) }
        self.field = field
    }

    static func engine(_ walk: WalkRecording, configuration: RangingConfiguration) -> Score {
        var engine = RangingEngine(configuration: configuration, catalog: walk.catalog)
        let identities = walk.exhibits.map(\.identity)
        let index = Dictionary(uniqueKeysWithValues: identities.enumerated().map { ($1, $0) })
        var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        var score = Score(nearest: NearestExhibitScore(stays: [], identities: [], ticks: []), errors: [], covered: 0, ranged: 0, widths: [])
        var next = (walk.start).rounded(.down) + 1
        func tick() {
            let snapshot = engine.tick(at: next)
            ticks.append((next, snapshot.nearest))
            score.cue.add(engine, snapshot, stays: walk.stays, configuration: configuration)
            for reading in snapshot.beacons where reading.accuracy >= 0 {
                guard let exhibit = index[reading.identity] else { continue }
                let truth = walk.distance(to: exhibit, at: next)
                if let scored = walk.scoredDistances, !scored.contains(truth) { continue }
                score.errors.append(abs(reading.accuracy - truth))
                score.byDistance.add(truth: truth, estimate: reading.accuracy,
                                     range: reading.accuracyRange.flatMap { $0.lowerBound > 0 ? $0 : nil })
                if let range = reading.accuracyRange, range.lowerBound > 0 {
                    score.ranged += 1
                    if range.contains(truth) { score.covered += 1 }
                    score.widths.append((range.upperBound / range.lowerBound).squareRoot())
                }
            }
            next += 1
        }
        for packet in walk.packets {
            while packet.time >= next { tick() }
            let exhibit = walk.exhibits[packet.exhibit]
            engine.record(Sighting(time: packet.time, identity: exhibit.identity, measuredPower: Int(exhibit.claimedPower.rounded()),
                                   address: BDAddress(rawValue: 0xC000_0000_0000 + UInt64(packet.exhibit)), rssi: packet.rssi))
        }
        tick()
        score.nearest = NearestExhibitScore(stays: walk.stays, identities: identities, ticks: ticks)
        score.ticks = ticks
        return score
    }

    static func pipeline(_ kind: FieldPipeline.Kind, walk: WalkRecording, staleAfter: Double) -> Score {
        var pipelines = walk.exhibits.map { FieldPipeline(kind, measuredPower: $0.claimedPower) }
        var lastHeard = [Double](repeating: -.infinity, count: walk.exhibits.count)
        let identities = walk.exhibits.map(\.identity)
        var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        var score = Score(nearest: NearestExhibitScore(stays: [], identities: [], ticks: []), errors: [], covered: 0, ranged: 0, widths: [])
        var next = (walk.start).rounded(.down) + 1
        func tick() {
            var best: (index: Int, distance: Double)?
            for index in pipelines.indices where next - lastHeard[index] <= staleAfter {
                guard let estimate = pipelines[index].estimate(at: next) else { continue }
                let truth = walk.distance(to: index, at: next)
                if walk.scoredDistances?.contains(truth) ?? true { score.errors.append(abs(estimate.distance - truth)) }
                if best == nil || estimate.distance < best!.distance { best = (index, estimate.distance) }
            }
            ticks.append((next, best.map { identities[$0.index] }))
            next += 1
        }
        for packet in walk.packets {
            while packet.time >= next { tick() }
            pipelines[packet.exhibit].add(rssi: Double(packet.rssi), at: packet.time)
            lastHeard[packet.exhibit] = packet.time
        }
        tick()
        score.nearest = NearestExhibitScore(stays: walk.stays, identities: identities, ticks: ticks)
        return score
    }
}
