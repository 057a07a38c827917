import BeaconFormats
import Foundation
import Testing
@testable import Ranging
@testable import RangingEvaluation

/// The thirteenth round's loss analysis (docs/ranging-history.md): on the library walk's
/// 10-18-2016 (rows every 2 s), every tick the raw strongest RSSI gets right and beacontop's first
/// beacon (= `nearest`) does not, sorted by the part of the pipeline that lags. `nearest` is
/// decided on each candidate's window level (the median of its last 2 s of packets, or of its last
/// 3), so the tick is put down to:
/// - the rule (evidence or minimum hold): the candidate with the highest window level is already
///   the right beacon, and the holder has not handed over;
/// - the level, leader heard: the highest window level is a wrong beacon heard in the row (its
///   median of three packets, 6 s at this rate, still carries the cell before);
/// - the level, leader silent: the highest window level is a beacon not heard in the row at all
///   (memory of earlier rows, kept while it is heard within `staleAfter`);
/// and by whether the pick itself was heard in the row. Beside each, how often the default
/// filter's strongest (the display level, not used for the pick) would have been right.
struct LibraryWalkLag {
    enum Stage: String, CaseIterable {
        case rule = "the rule: the highest window level is right, the holder not yet handed over"
        case levelHeard = "the level: the highest window level is a wrong beacon heard in the row"
        case levelSilent = "the level: the highest window level is a beacon not heard in the row"
    }

    struct Count: Equatable {
        var pickHeard = 0
        var pickSilent = 0
        var filterRight = 0
        var total: Int { pickHeard + pickSilent }
    }

    var counts: [Stage: Count] = [:]
    var lost: Int { counts.values.reduce(0) { $0 + $1.total } }
    /// The fifteenth round's split of the rule's ticks (docs/ranging-history.md).
    var handOvers: [HandOver] = []

    /// Why a tick of the `.rule` stage lags. `windowLed` is how many seconds the right beacon has
    /// had the highest window level without a break (0: it took the lead at this tick);
    /// `newestLed` how long it has had the highest newest reading (each candidate's last packet),
    /// nil when it does not now; `lead` its window level over the pick's, dB.
    struct HandOver {
        var windowLed: Double
        var newestLed: Double?
        var lead: Double
        var pickHeard: Bool

        enum Cause: String, CaseIterable {
            case level = "the level: the newest readings led before the window level did"
            case hysteresis = "the rule: the window level led as soon, its lead within the 1-dB hysteresis"
            case evidence = "the rule: the window level led as soon, evidence or hold still piling up"
        }

        func cause(hysteresis: Double) -> Cause {
            if let newestLed, newestLed > windowLed { return .level }
            return lead <= hysteresis ? .hysteresis : .evidence
        }
    }

    init(_ session: LibraryWalk.Session, configuration: RangingConfiguration = RangingConfiguration()) {
        let beacons = LibraryWalk.beaconCells.count
        var engine = RangingEngine(configuration: configuration)
        var rings = (0..<beacons).map { _ in ArrivalRing(capacity: configuration.arrivalHistory) }
        var lastSeen = [Double](repeating: -.infinity, count: beacons)
        var next = session.rows[0].time.rounded(.down) + 1
        var pending: LibraryWalk.Row?
        // The leader by window level and by newest reading, and since which tick each has led.
        var windowLeader: (beacon: Int, since: Double)?, newestLeader: (beacon: Int, since: Double)?
        var levels = [Double?](repeating: nil, count: beacons)
        func tick() {
            let snapshot = engine.tick(at: next)
            defer { next += 1 }
            // The engine forgets a beacon silent beyond `forgetAfter`: its ring starts over.
            for beacon in 0..<beacons where next - lastSeen[beacon] > configuration.forgetAfter && rings[beacon].count > 0 {
                rings[beacon] = ArrivalRing(capacity: configuration.arrivalHistory)
            }
            var leader: (beacon: Int, level: Double)?, newest: (beacon: Int, level: Double)?
            for beacon in 0..<beacons {
                levels[beacon] = nil
                guard next - lastSeen[beacon] <= configuration.staleAfter, let level = rings[beacon].rssiQuantile(
                    at: next, window: configuration.nearestWindow, quantile: configuration.nearestQuantile, minimumCount: 3
                ), let latest = rings[beacon].rssiQuantile(at: next, window: 0, quantile: 0.5, minimumCount: 1) else { continue }
                levels[beacon] = level
                if leader == nil || level > leader!.level { leader = (beacon, level) }
                if newest == nil || latest > newest!.level { newest = (beacon, latest) }
            }
            if windowLeader?.beacon != leader?.beacon { windowLeader = leader.map { ($0.beacon, next) } }
            if newestLeader?.beacon != newest?.beacon { newestLeader = newest.map { ($0.beacon, next) } }
            guard let row = pending else { return }
            pending = nil
            let truth = LibraryWalk.nearestBeacons(to: row.cell)[0]
            let pick = snapshot.beacons.first.flatMap { reading in (0..<beacons).first { LibraryWalkEvaluation.identity($0) == reading.identity } }
            guard LibraryWalk.strongest(row).first == truth, let pick, pick != truth else { return }
            var filterStrongest: (beacon: Int, rssi: Double)?
            for reading in snapshot.beacons {
                guard let rssi = reading.filteredRSSI,
                      let beacon = (0..<beacons).first(where: { LibraryWalkEvaluation.identity($0) == reading.identity }) else { continue }
                if filterStrongest == nil || rssi > filterStrongest!.rssi || rssi == filterStrongest!.rssi && beacon < filterStrongest!.beacon {
                    filterStrongest = (beacon, rssi)
                }
            }
            let stage: Stage = leader?.beacon == truth ? .rule : leader.map { row.rssi[$0.beacon] != nil } == true ? .levelHeard : .levelSilent
            if stage == .rule, let leader, let windowLeader {
                handOvers.append(HandOver(
                    windowLed: next - windowLeader.since, newestLed: newestLeader?.beacon == truth ? newestLeader.map { next - $0.since } : nil,
                    lead: leader.level - (levels[pick] ?? -.infinity), pickHeard: row.rssi[pick] != nil
                ))
            }
            var count = counts[stage, default: Count()]
            if row.rssi[pick] != nil { count.pickHeard += 1 } else { count.pickSilent += 1 }
            if filterStrongest?.beacon == truth { count.filterRight += 1 }
            counts[stage] = count
        }
        for row in session.rows {
            while row.time >= next { tick() }
            for (beacon, rssi) in row.rssi.enumerated() {
                guard let rssi else { continue }
                engine.record(LibraryWalkEvaluation.sighting(beacon: beacon, rssi: rssi, at: row.time))
                rings[beacon].append(time: row.time, rssi: rssi)
                lastSeen[beacon] = row.time
            }
            pending = row
        }
        tick()
    }

    var table: String {
        var text = "| where it lags | lost ticks | pick heard in the row | pick not heard | the filter's strongest right |\n|---|---|---|---|---|\n"
        for stage in Stage.allCases {
            let count = counts[stage, default: Count()]
            text += "| \(stage.rawValue) | \(count.total) | \(count.pickHeard) | \(count.pickSilent) | \(count.filterRight) |\n"
        }
        return text + "| all | \(lost) | \(counts.values.reduce(0) { $0 + $1.pickHeard }) | \(counts.values.reduce(0) { $0 + $1.pickSilent }) | \(counts.values.reduce(0) { $0 + $1.filterRight }) |\n"
    }
}

extension LibraryWalkLag {
    /// The rule's ticks by `HandOver.Cause`: how many, how many with the pick heard in the row,
    /// how many where the right beacon's window level took the lead at this very tick (a rule
    /// summing evidence over ticks cannot hand over then), and the median seconds its newest
    /// reading had led, where it leads now.
    func handOverTable(hysteresis: Double = 1) -> String {
        var text = "| the rule's ticks, why they lag | ticks | pick heard in the row | window level took the lead at this tick | newest reading led (median s) |\n|---|---|---|---|---|\n"
        for cause in HandOver.Cause.allCases {
            let ticks = handOvers.filter { $0.cause(hysteresis: hysteresis) == cause }
            let newest = ticks.compactMap(\.newestLed).sorted()
            text += "| \(cause.rawValue) | \(ticks.count) | \(ticks.filter(\.pickHeard).count) | \(ticks.filter { $0.windowLed == 0 }.count) | "
                + (newest.isEmpty ? "-" : String(format: "%.0f", newest[newest.count / 2])) + " |\n"
        }
        return text
    }
}

@Suite struct LibraryWalkLagTests {
    static let day = LibraryWalkTests.walk.sessions.first { $0.day == "10-18-2016" }!

    /// The table of docs/ranging-history.md's thirteenth round (printed by this test).
    @Test func tenEighteensLostTicksByWhereTheyLag() {
        let lag = LibraryWalkLag(Self.day)
        print(lag.table)
        #expect(lag.lost == 88)
        #expect(lag.counts[.rule] == LibraryWalkLag.Count(pickHeard: 21, pickSilent: 17, filterRight: lag.counts[.rule]?.filterRight ?? -1))
        #expect(lag.counts[.levelHeard]?.total == 14)
        #expect(lag.counts[.levelSilent]?.total == 36)
    }

    /// The fifteenth round's measurement (docs/ranging-history.md): the rule's 38 ticks split into
    /// the window level's lag behind the newest readings and the rule's own accumulation.
    @Test func theRulesTicksByWhyTheyLag() {
        let lag = LibraryWalkLag(Self.day)
        print(lag.handOverTable())
        #expect(lag.handOvers.count == 38)
        let causes = lag.handOvers.map { $0.cause(hysteresis: 1) }
        #expect(causes.filter { $0 == .level }.count == 17)
        #expect(causes.filter { $0 == .hysteresis }.count == 9)
        #expect(causes.filter { $0 == .evidence }.count == 12)
    }
}
