import BeaconFormats
import Testing
@testable import Ranging

/// `RangingEngine.replaceCatalog` and `selectFilter`: the calibration wizard's save hands the engine a
/// catalog with a new measured power, `f` a new filter; a visitor inside must not leave and re-enter
/// (a second `enter`, a second visit).
@Suite struct RangingEngineCarryOverTests {
    static let beacon = ScriptedBeacon.iBeacon(minor: 1)
    static let other = ScriptedBeacon.iBeacon(minor: 2)

    static func catalog(measuredPower: Double?, withBeacon: Bool = true) -> ExhibitCatalog {
        var exhibits = [Exhibit(id: other.identity.description, name: "Map room", measuredPower: -59)]
        if withBeacon { exhibits.insert(Exhibit(id: beacon.identity.description, name: "Globe", measuredPower: measuredPower), at: 0) }
        return ExhibitCatalog(exhibits: exhibits)
    }

    /// The beacon held at 0.5 m from 0 s and the other at 6 m, both heard until `end`, ticked each second.
    static func sightings(until end: Double) -> [Sighting] {
        var noise = SeededNoise(seed: 11)
        return merged([
            beacon.sightings(from: 0, to: end, noise: &noise) { _ in 0.5 },
            other.sightings(from: 0, to: end, noise: &noise) { _ in 6 },
        ])
    }

    /// Feeds `sightings` in [from, to) and ticks at each whole second in (from, to].
    static func feed(_ sightings: [Sighting], from: Double, to: Double, into engine: inout RangingEngine) -> [RangingSnapshot] {
        var snapshots: [RangingSnapshot] = []
        var second = from + 1
        for sighting in sightings where sighting.time >= from && sighting.time < to {
            while sighting.time >= second {
                snapshots.append(engine.tick(at: second))
                second += 1
            }
            engine.record(sighting)
        }
        while second <= to {
            snapshots.append(engine.tick(at: second))
            second += 1
        }
        return snapshots
    }

    @Test func aNewMeasuredPowerKeepsTheVisitAndRangesTheSameFilteredRSSIAtTheNewPower() throws {
        let sightings = Self.sightings(until: 30)
        var engine = RangingEngine(catalog: Self.catalog(measuredPower: -59))
        let before = Self.feed(sightings, from: 0, to: 15, into: &engine)
        #expect(before.flatMap(\.events).map(\.kind) == [.enter, .enter], "inside both regions (the Map room's 6 m is still heard)")
        #expect(before.last?.nearest == Self.beacon.identity)
        var untouched = engine

        engine.replaceCatalog(Self.catalog(measuredPower: -52))
        let after = Self.feed(sightings, from: 15, to: 30, into: &engine)
        let unchanged = Self.feed(sightings, from: 15, to: 30, into: &untouched)

        #expect(after.flatMap(\.events).isEmpty, "no second enter, no exit")
        let first = try #require(after.first?.beacons.first { $0.identity == Self.beacon.identity })
        let same = try #require(unchanged.first?.beacons.first { $0.identity == Self.beacon.identity })
        let filtered = try #require(first.filteredRSSI)
        #expect(filtered == same.filteredRSSI, "the filter carried on")
        #expect(first.measuredPower.dBm == -52)
        let expected = try #require(engine.configuration.distanceModel.distance(
            rssi: filtered, measuredPower: -52, pathLossExponent: engine.configuration.pathLossExponent
        ))
        #expect(abs(first.accuracy - expected) < 1e-9, "at the next tick: \(first.accuracy) m, expected \(expected) m")
        #expect(first.accuracy > same.accuracy * 1.5, "7 dB more at 1 m: farther (\(first.accuracy) vs \(same.accuracy) m)")
        #expect(after.allSatisfy { $0.nearest == Self.beacon.identity })
        let visits = engine.dwellReport(at: 30).rows.first { $0.id == Self.beacon.identity.description }
        #expect(visits?.visits == 1)
        #expect(visits?.total ?? 0 >= 28, "one visit from the first ticks to 30 s: \(visits?.total ?? 0) s")
        #expect(engine.dwellReport(at: 30) == untouched.dwellReport(at: 30), "the same visits as with no save")
    }

    @Test func anExhibitRemovedWhileInsideExitsAtTheNextTick() throws {
        let sightings = Self.sightings(until: 30)
        var engine = RangingEngine(catalog: Self.catalog(measuredPower: -59))
        _ = Self.feed(sightings, from: 0, to: 15, into: &engine)

        engine.replaceCatalog(Self.catalog(measuredPower: nil, withBeacon: false))
        let after = Self.feed(sightings, from: 15, to: 30, into: &engine)
        let first = try #require(after.first)
        #expect(first.events.map(\.kind) == [.exit])
        #expect(first.events.first?.region.identifier == Self.beacon.identity.description)
        #expect(first.events.first?.time == 16)
        #expect(after.dropFirst().allSatisfy { $0.events.isEmpty }, "the Map room stays inside (heard from the start): no event")
        #expect(first.nearest != Self.beacon.identity, "no longer an exhibit, so not nearest")
        let reading = try #require(first.beacons.first { $0.identity == Self.beacon.identity })
        #expect(reading.exhibit == nil)
        #expect(reading.measuredPower.dBm == -59, "the frame's power again, with no override")
        let visit = try #require(engine.dwellReport(at: 30).rows.first { $0.id == Self.beacon.identity.description })
        #expect(visit.visits == 1)
        #expect(visit.total <= 15, "the visit ended when the exhibit went: \(visit.total) s")
    }

    @Test func anExhibitAddedStartsOutsideAndEntersWhenHeard() {
        let sightings = Self.sightings(until: 20)
        var engine = RangingEngine(catalog: Self.catalog(measuredPower: nil, withBeacon: false))
        let before = Self.feed(sightings, from: 0, to: 10, into: &engine)
        #expect(before.flatMap(\.events).map(\.region.identifier) == [Self.other.identity.description])
        engine.replaceCatalog(Self.catalog(measuredPower: -59))
        let after = Self.feed(sightings, from: 10, to: 20, into: &engine)
        let events = after.flatMap(\.events)
        #expect(events.map(\.kind) == [.enter])
        #expect(events.map(\.region.identifier) == [Self.beacon.identity.description])
        #expect(after.last?.nearest == Self.beacon.identity)
    }

    @Test func aFilterSwitchKeepsTheVisitAndRangesWithTheNewFilterFromTheNextPacket() throws {
        let sightings = Self.sightings(until: 30)
        var engine = RangingEngine(catalog: Self.catalog(measuredPower: -59))
        _ = Self.feed(sightings, from: 0, to: 15, into: &engine)
        var untouched = engine
        engine.selectFilter(.kalman)
        #expect(engine.configuration.filter == .kalman)
        let after = Self.feed(sightings, from: 15, to: 30, into: &engine)
        let unchanged = Self.feed(sightings, from: 15, to: 30, into: &untouched)
        #expect(after.flatMap(\.events).isEmpty, "no second enter, no exit")
        #expect(after.allSatisfy { $0.nearest == Self.beacon.identity })
        let first = try #require(after.first?.beacons.first { $0.identity == Self.beacon.identity })
        let same = try #require(unchanged.first?.beacons.first { $0.identity == Self.beacon.identity })
        #expect(first.filteredRSSI != nil && first.filteredRSSI != same.filteredRSSI, "a new filter, filled by the second's packets")
        #expect(first.proximity == .immediate || first.proximity == .near)
        #expect(engine.dwellReport(at: 30) == untouched.dwellReport(at: 30), "the same one visit as with no switch")
        #expect(engine.dwellReport(at: 30).rows.first { $0.id == Self.beacon.identity.description }?.visits == 1)
    }
}
