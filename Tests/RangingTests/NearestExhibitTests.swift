import BeaconFormats
import Testing
@testable import Ranging

@Suite struct NearestExhibitTests {
    static func catalog(_ minors: [UInt16]) -> ExhibitCatalog {
        ExhibitCatalog(title: "Test hall", exhibits: minors.map { minor in
            Exhibit(id: ScriptedBeacon.iBeacon(minor: minor).identity.description, name: "Exhibit \(minor)")
        })
    }

    /// Two exhibits at 1.0 m and 1.1 m, both noisy: `nearest` settles on one and never flickers.
    @Test(arguments: 0..<8)
    func twoExhibitsAtNearlyTheSameDistanceDoNotFlicker(seed: Int) {
        var noise = SeededNoise(seed: UInt64(seed) + 200)
        let a = ScriptedBeacon.iBeacon(minor: 1)
        let b = ScriptedBeacon.iBeacon(minor: 2)
        let sightings = merged([
            a.sightings(from: 0, to: 90, noise: &noise) { _ in 1.0 },
            b.sightings(from: 0.05, to: 90, noise: &noise) { _ in 1.1 },
        ])
        var engine = RangingEngine(catalog: Self.catalog([1, 2]))
        let snapshots = run(sightings, engine: &engine, until: 90)
        let nearest = snapshots.filter { $0.time >= 3 }.map(\.nearest)
        #expect(nearest.allSatisfy { $0 != nil })
        let changes = zip(nearest, nearest.dropFirst()).filter { $0 != $1 }.count
        #expect(changes <= 1, "seed \(seed): \(changes) changes of nearest")
    }

    /// The visitor walks from exhibit 1 to exhibit 2 (2 m apart): nearest follows within a few
    /// seconds, with exactly one change.
    @Test func nearestFollowsARealMoveOnce() {
        var noise = SeededNoise(seed: 5)
        let a = ScriptedBeacon.iBeacon(minor: 1)
        let b = ScriptedBeacon.iBeacon(minor: 2)
        // Exhibits at x = 0 and x = 2 m; the visitor stands 0.8 m in front, at x = 0 then x = 2.
        func position(_ t: Double) -> Double { t < 30 ? 0 : (t < 32 ? (t - 30) : 2) }
        func distance(_ x: Double, _ exhibit: Double) -> Double { ((x - exhibit) * (x - exhibit) + 0.64).squareRoot() }
        let sightings = merged([
            a.sightings(from: 0, to: 60, noise: &noise) { distance(position($0), 0) },
            b.sightings(from: 0.03, to: 60, noise: &noise) { distance(position($0), 2) },
        ])
        var engine = RangingEngine(catalog: Self.catalog([1, 2]))
        let snapshots = run(sightings, engine: &engine, tick: 0.5, until: 60)
        let nearest = snapshots.map(\.nearest)
        let changes = zip(nearest.dropFirst(4), nearest.dropFirst(5)).filter { $0 != $1 }.count
        #expect(changes == 1)
        #expect(snapshots.first { $0.time == 29 }?.nearest == a.identity)
        let arrival = snapshots.first { $0.time > 30 && $0.nearest == b.identity }?.time ?? 99
        #expect(arrival <= 34, "nearest switched at \(arrival) s")
    }

    @Test func onlyCatalogBeaconsCountWhenACatalogIsLoaded() {
        var noise = SeededNoise(seed: 9)
        let exhibit = ScriptedBeacon.iBeacon(minor: 1)
        let stranger = ScriptedBeacon.iBeacon(minor: 77)
        let sightings = merged([
            exhibit.sightings(from: 0, to: 20, noise: &noise) { _ in 2.0 },
            stranger.sightings(from: 0, to: 20, noise: &noise) { _ in 0.4 },
        ])
        var withCatalog = RangingEngine(catalog: Self.catalog([1]))
        let last = run(sightings, engine: &withCatalog, until: 20).last!
        #expect(last.nearest == exhibit.identity)
        #expect(last.beacons.map(\.identity) == [exhibit.identity, stranger.identity], "the stranger is still listed, after the nearest exhibit")
        var withoutCatalog = RangingEngine()
        #expect(run(sightings, engine: &withoutCatalog, until: 20).last!.nearest == stranger.identity)
    }

    /// A nearer beacon appears: its distance puts it ahead at once, but `nearest` waits for the
    /// evidence. Meanwhile the list still starts with `nearest`, as CoreLocation's ranged array
    /// starts with its closest: the top line and the highlight never disagree.
    @Test(arguments: [false, true])
    func theListStartsWithNearestWhenDistanceSaysOtherwise(withCatalog: Bool) {
        var noise = SeededNoise(seed: 13)
        let held = ScriptedBeacon.iBeacon(minor: 1)
        let arriving = ScriptedBeacon.iBeacon(minor: 2)
        let sightings = merged([
            held.sightings(from: 0, to: 40, noise: &noise) { _ in 1.0 },
            arriving.sightings(from: 30, to: 40, noise: &noise) { _ in 0.5 },
        ])
        var engine = withCatalog ? RangingEngine(catalog: Self.catalog([1, 2])) : RangingEngine()
        let snapshots = run(sightings, engine: &engine, tick: 0.5, until: 40)
        let disagreeing = snapshots.filter { snapshot in
            guard let heldReading = snapshot.beacons.first(where: { $0.identity == held.identity }),
                  let arrivingReading = snapshot.beacons.first(where: { $0.identity == arriving.identity }) else { return false }
            return snapshot.nearest == held.identity && arrivingReading.accuracy < heldReading.accuracy
        }
        #expect(!disagreeing.isEmpty, "a tick where distance and nearest disagree")
        for snapshot in disagreeing {
            #expect(snapshot.beacons.map(\.identity) == [held.identity, arriving.identity], "at \(snapshot.time) s")
        }
        #expect(snapshots.allSatisfy { $0.nearest == nil || $0.beacons.first?.identity == $0.nearest })
        #expect(snapshots.last?.nearest == arriving.identity, "nearest follows in the end")
    }

    /// Relative evidence: the only exhibit heard is the nearest one, however far it reads.
    @Test func aFarExhibitHeardAloneIsNearest() {
        var noise = SeededNoise(seed: 11)
        let far = ScriptedBeacon.iBeacon(minor: 1)
        var engine = RangingEngine(catalog: Self.catalog([1]))
        let snapshots = run(far.sightings(from: 0, to: 20, noise: &noise) { _ in 8 }, engine: &engine, until: 20)
        #expect(snapshots.last!.beacons[0].proximity == .far)
        #expect(snapshots.allSatisfy { $0.nearest == far.identity })
    }

    /// A catalog's `nearestWithin` is the one way to say "too far to be at any exhibit": an exhibit
    /// whose range's near end is beyond it is not nearest; once the visitor comes close, it is.
    @Test func theCatalogsNearestWithinLeavesAFarExhibitOut() throws {
        var noise = SeededNoise(seed: 12)
        let exhibit = ScriptedBeacon.iBeacon(minor: 1)
        var catalog = Self.catalog([1])
        catalog.nearestWithin = 2
        var engine = RangingEngine(catalog: catalog)
        let snapshots = run(exhibit.sightings(from: 0, to: 40, noise: &noise) { t in t < 20 ? 15 : 1 }, engine: &engine, until: 40)
        for snapshot in snapshots where snapshot.time >= 3 && snapshot.time < 20 {
            let range = try #require(snapshot.beacons[0].accuracyRange)
            #expect(range.lowerBound > 2, "t \(snapshot.time): \(range)")
            #expect(snapshot.nearest == nil)
        }
        #expect(snapshots.filter { $0.time >= 25 }.allSatisfy { $0.nearest == exhibit.identity })
    }
}
