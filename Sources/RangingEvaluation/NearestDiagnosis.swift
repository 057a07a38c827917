import BeaconFormats
import Foundation
import Simulation

/// Sorts beacontop's `nearest` misses and extra changes on walks by their cause, so a rule can be
/// aimed at the largest class and its most possible gain known before it is scored
/// (docs/ranging-history.md, "Where nearest loses, by cause"). Stay ticks are scored as
/// `NearestExhibitScore` scores them (after each stay's first `settle` seconds).
///
/// Misses:
/// - **arrival**: before the stay's first right tick: the hand-over has not happened yet;
/// - **whole stay, RSSI says the neighbour**: no right tick in the stay, and the exhibit named most
///   over it has the higher median level (RSSI minus claimed measured power) over the stay's
///   packets: the RSSI itself points at the neighbour (a calibration error larger than the path
///   loss between them), no rule on these levels can name the visited exhibit;
/// - **whole stay, RSSI says the visited**: no right tick, yet the visited exhibit's median level
///   is the higher: the evidence was there and the rule did not act on it;
/// - **mid-stay**: after a right tick, the title left (shadowing, a deep fade, a neighbour's
///   stretch of luck).
///
/// Changes of `nearest` (the score's changes, between the first stay's start and the last's end):
/// - **needed**: the first change to each stay's exhibit (during the walk to it or the stay);
/// - **mid-stay**: any other change while the visitor stands at an exhibit (away and back);
/// - **pass-through**: while walking, to an exhibit that was geometrically the nearest at some
///   moment of that walk (the visitor walked past it);
/// - **walking flicker**: any other change while walking.
public struct NearestDiagnosis: Sendable, Equatable {
    public var stayTicks = 0
    public var arrivalMisses = 0
    public var wholeStayNeighbourLouder = 0
    public var wholeStayVisitedLouder = 0
    public var wholeStays = 0
    public var midStayMisses = 0
    public var stays = 0
    public var moves = 0
    public var neededChanges = 0
    public var midStayChanges = 0
    public var passThroughChanges = 0
    public var walkingFlickers = 0
    /// Seconds from each reached stay's start to its first right tick.
    public var arrivalDelays: [Double] = []

    public init() {}

    public init(_ walk: WalkRecording, ticks: [(time: Double, nearest: BeaconIdentity?)], settle: Double = 2) {
        let identities = walk.exhibits.map(\.identity)
        let stays = walk.stays
        self.stays = stays.count
        for (a, b) in zip(stays, stays.dropFirst()) where a.beaconIndex != b.beaconIndex { moves += 1 }
        for stay in stays {
            let visited = identities[stay.beaconIndex]
            let inStay = ticks.filter { $0.time >= stay.start && $0.time <= stay.end }
            let scored = inStay.filter { $0.time >= stay.start + settle }
            stayTicks += scored.count
            guard let firstRight = inStay.first(where: { $0.nearest == visited })?.time else {
                let wrong = scored.filter { $0.nearest != visited }
                guard !wrong.isEmpty else { continue }
                wholeStays += 1
                if let rival = Self.mostNamed(wrong.compactMap(\.nearest)), let r = identities.firstIndex(of: rival),
                   Self.medianLevel(walk, exhibit: r, from: stay.start + settle, to: stay.end)
                       >= Self.medianLevel(walk, exhibit: stay.beaconIndex, from: stay.start + settle, to: stay.end) {
                    wholeStayNeighbourLouder += wrong.count
                } else {
                    wholeStayVisitedLouder += wrong.count
                }
                continue
            }
            arrivalDelays.append(firstRight - stay.start)
            for tick in scored where tick.nearest != visited {
                if tick.time < firstRight { arrivalMisses += 1 } else { midStayMisses += 1 }
            }
        }
        guard let first = stays.first, let last = stays.last else { return }
        var previous: BeaconIdentity?
        var reached = Set<Int>()
        for tick in ticks where tick.time >= first.start && tick.time <= last.end {
            guard let nearest = tick.nearest else { continue }
            defer { previous = nearest }
            let current = stays.enumerated().first { tick.time >= $0.element.start && tick.time <= $0.element.end }
            // A stay whose exhibit already held the title when it began needed no change.
            if let (index, stay) = current, previous == identities[stay.beaconIndex] { reached.insert(index) }
            guard let previous, previous != nearest else { continue }
            if let (index, stay) = current {
                if nearest == identities[stay.beaconIndex], reached.insert(index).inserted { neededChanges += 1 } else { midStayChanges += 1 }
                continue
            }
            guard let next = stays.firstIndex(where: { $0.start > tick.time }) else { continue }
            if nearest == identities[stays[next].beaconIndex], reached.insert(next).inserted {
                neededChanges += 1
            } else if let exhibit = identities.firstIndex(of: nearest),
                      Self.geometricallyNearest(walk, exhibit: exhibit, from: stays[next - 1].end, to: stays[next].start) {
                passThroughChanges += 1
            } else {
                walkingFlickers += 1
            }
        }
    }

    public var changes: Int { neededChanges + midStayChanges + passThroughChanges + walkingFlickers }
    public var misses: Int { arrivalMisses + wholeStayNeighbourLouder + wholeStayVisitedLouder + midStayMisses }

    public mutating func add(_ other: NearestDiagnosis) {
        stayTicks += other.stayTicks
        arrivalMisses += other.arrivalMisses
        wholeStayNeighbourLouder += other.wholeStayNeighbourLouder
        wholeStayVisitedLouder += other.wholeStayVisitedLouder
        wholeStays += other.wholeStays
        midStayMisses += other.midStayMisses
        stays += other.stays
        moves += other.moves
        neededChanges += other.neededChanges
        midStayChanges += other.midStayChanges
        passThroughChanges += other.passThroughChanges
        walkingFlickers += other.walkingFlickers
        arrivalDelays += other.arrivalDelays
    }

    static func mostNamed(_ names: [BeaconIdentity]) -> BeaconIdentity? {
        var counts: [BeaconIdentity: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $1.key < $0.key }?.key
    }

    /// The median of an exhibit's packets' RSSI minus its claimed measured power over a time span
    /// (-infinity when none was heard): what the rule's level sees, over the whole span.
    static func medianLevel(_ walk: WalkRecording, exhibit: Int, from start: Double, to end: Double) -> Double {
        let levels = walk.packets.filter { $0.exhibit == exhibit && $0.time >= start && $0.time <= end }
            .map { Double($0.rssi) - walk.exhibits[exhibit].claimedPower }
        return median(levels) ?? -.infinity
    }

    /// Whether `exhibit` was the exhibit nearest the visitor at some moment (every 0.1 s) of a walk.
    static func geometricallyNearest(_ walk: WalkRecording, exhibit: Int, from start: Double, to end: Double) -> Bool {
        var time = start
        while time <= end {
            let nearest = walk.exhibits.indices.min { walk.distance(to: $0, at: time) < walk.distance(to: $1, at: time) }
            if nearest == exhibit { return true }
            time += 0.1
        }
        return false
    }
}
