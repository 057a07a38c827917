import BeaconFormats
import HCI
import Testing
@testable import Ranging

@Suite struct RangingEngineTests {
    @Test func aSteadyBeaconsAccuracyVariesLittleTickToTick() {
        var noise = SeededNoise(seed: 21)
        let beacon = ScriptedBeacon.iBeacon(minor: 3)
        // The range as it was stated before the default model: one deviation either side.
        var configuration = RangingConfiguration.plainLogDistance
        configuration.shadowingDeviation = 3
        configuration.rangeProbability = 0.682_689_492
        var engine = RangingEngine(configuration: configuration)
        let snapshots = run(beacon.sightings(from: 0, to: 60, noise: &noise) { _ in 2.0 }, engine: &engine, until: 60)
        let accuracies = snapshots.filter { $0.time >= 10 }.map { $0.beacons[0].accuracy }
        let steps = zip(accuracies, accuracies.dropFirst()).map { abs($0 - $1) }
        #expect(steps.max()! < 0.1, "largest tick-to-tick change \(steps.max()!) m")
        let median = accuracies.sorted()[accuracies.count / 2]
        #expect(abs(median - 2.0) < 0.3)
        let reading = snapshots.last!.beacons[0]
        #expect(reading.proximity == .near)
        #expect(reading.packets == 10)
        #expect(abs(reading.packetsPerSecond - 10) < 0.6)
        #expect(abs((reading.advertisingInterval ?? 0) - 0.1) < 0.01)
        let range = try! #require(reading.accuracyRange)
        #expect(range.lowerBound < reading.accuracy && reading.accuracy < range.upperBound)
        // The range is the filtered RSSI +- sqrt(P + 3 dB²) through the model: at least +-3 dB.
        let expectedLow = LogDistanceModel.distance(rssi: reading.filteredRSSI! + 3, measuredPower: -59, exponent: 2)!
        #expect(range.lowerBound < expectedLow && range.lowerBound > expectedLow * 0.95)
        #expect(reading.rangeProbability == configuration.rangeProbability)
    }

    /// The default model: distance and range come from its posterior table for the beacon's x.
    @Test func theDefaultModelReadsItsTable() throws {
        var noise = SeededNoise(seed: 21)
        let beacon = ScriptedBeacon.iBeacon(minor: 3)
        var engine = RangingEngine()
        let snapshots = run(beacon.sightings(from: 0, to: 30, noise: &noise) { _ in 2.0 }, engine: &engine, until: 30)
        let reading = snapshots.last!.beacons[0]
        guard case .posterior(let prior) = RangingConfiguration().distanceModel else { throw CancellationError() }
        let table = prior.table(exponent: RangingConfiguration().pathLossExponent, probability: 0.8)
        let expected = table.estimate(x: -59 - reading.filteredRSSI!)
        #expect(abs(reading.accuracy - expected.distance) < 1e-9)
        #expect(reading.accuracyRange == expected.range)
        #expect(reading.rangeProbability == 0.8)
        #expect(try #require(reading.accuracyRange).contains(2), "the beacon is 2 m away")
    }

    @Test func beaconsAreSortedNearestFirst() {
        var noise = SeededNoise(seed: 22)
        let beacons = [(UInt16(1), 4.0), (2, 0.7), (3, 2.0)].map { (ScriptedBeacon.iBeacon(minor: $0.0), $0.1) }
        let sightings = merged(beacons.map { beacon, d in beacon.sightings(from: 0, to: 15, noise: &noise) { _ in d } })
        var engine = RangingEngine()
        let last = run(sightings, engine: &engine, until: 15).last!
        #expect(last.beacons.map(\.identity) == [beacons[1].0.identity, beacons[2].0.identity, beacons[0].0.identity])
    }

    @Test func aSilentBeaconTurnsUnknownThenIsForgotten() {
        var noise = SeededNoise(seed: 23)
        let beacon = ScriptedBeacon.iBeacon(minor: 4)
        var configuration = RangingConfiguration()
        configuration.staleAfter = 5
        configuration.forgetAfter = 20
        var engine = RangingEngine(configuration: configuration)
        let snapshots = run(beacon.sightings(from: 0, to: 10, noise: &noise) { _ in 1.0 }, engine: &engine, until: 40)
        let at = { (t: Double) in snapshots.first { $0.time == t }! }
        #expect(at(10).beacons[0].proximity == .near)
        #expect(at(14).beacons[0].accuracy > 0, "4.1 s of silence: still known")
        #expect(at(15).beacons[0].proximity == .unknown)
        #expect(at(15).beacons[0].accuracy == -1)
        #expect(at(15).beacons[0].isStale)
        #expect(at(29).beacons.count == 1)
        #expect(at(30).beacons.isEmpty, "forgotten after 20 s")
    }

    @Test func aReturningBeaconRestartsItsFilter() {
        var noise = SeededNoise(seed: 24)
        let beacon = ScriptedBeacon.iBeacon(minor: 5)
        let sightings = beacon.sightings(from: 0, to: 20, noise: &noise) { _ in 1.0 }
            + beacon.sightings(from: 30, to: 33, noise: &noise) { _ in 6.0 }
        var engine = RangingEngine(configuration: .plainLogDistance)
        let snapshots = run(sightings, engine: &engine, until: 33)
        #expect(abs(snapshots.last!.beacons[0].accuracy - 6) < 2, "after the gap the old level is gone")
    }

    /// Frames with measured power +12 (as the Govee captures carry) give sane distances from the
    /// default -59 dBm, and say so.
    @Test func nonsenseMeasuredPowerGivesSaneDistances() {
        var noise = SeededNoise(seed: 25)
        var beacon = ScriptedBeacon.iBeacon(minor: 6)
        beacon.measuredPower = 12
        let sightings = beacon.sightings(from: 0, to: 15, noise: &noise) { _ in 1.0 }.map { sighting in
            var copy = sighting
            copy.rssi = Int((LogDistanceModel.rssi(atDistance: 2, measuredPower: -59, exponent: 2)).rounded()) + (sighting.rssi - 12)
            return copy
        }
        var engine = RangingEngine()
        let reading = run(sightings, engine: &engine, until: 15).last!.beacons[0]
        #expect(reading.measuredPower.source == .defaultForNonsense)
        #expect(reading.measuredPower.frameValue == 12)
        #expect(reading.accuracy > 0.5 && reading.accuracy < 8, "accuracy \(reading.accuracy) m")
    }

    @Test func memoryIsBoundedByEvictingTheLeastRecentlyHeard() {
        var configuration = RangingConfiguration()
        configuration.maxBeacons = 3
        var engine = RangingEngine(configuration: configuration)
        for minor in 0..<5 {
            let beacon = ScriptedBeacon.iBeacon(minor: UInt16(minor))
            engine.record(Sighting(time: Double(minor), identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: -60))
        }
        let snapshot = engine.tick(at: 5)
        #expect(engine.trackedBeacons == 3)
        #expect(snapshot.evictedBeacons == 2)
        #expect(Set(snapshot.beacons.map(\.identity)) == Set((2..<5).map { ScriptedBeacon.iBeacon(minor: UInt16($0)).identity }))
    }

    @Test func catalogOverridesApplyPerBeacon() throws {
        let beacon = ScriptedBeacon.iBeacon(minor: 8)
        let catalog = ExhibitCatalog(exhibits: [Exhibit(id: beacon.identity.description, name: "Vase", measuredPower: -65, pathLossExponent: 3)])
        var engine = RangingEngine(configuration: .plainLogDistance, catalog: catalog)
        var posterior = RangingEngine(catalog: catalog)
        for step in 0..<30 {
            engine.record(Sighting(time: Double(step) / 10, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: -95))
            posterior.record(Sighting(time: Double(step) / 10, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: -95))
        }
        let reading = engine.tick(at: 3).beacons[0]
        // The default model weighs the catalog's exponent against its own (PathLossPosteriorTests).
        let weighed = posterior.tick(at: 3).beacons[0]
        guard case .posterior(let prior) = RangingConfiguration().distanceModel else { throw CancellationError() }
        let table = prior.table(exponent: RangingConfiguration().pathLossExponent, catalogExponent: 3, probability: 0.8)
        #expect(abs(weighed.accuracy - table.estimate(x: 30).distance) < 1e-9)
        #expect(reading.measuredPower == ResolvedMeasuredPower(dBm: -65, source: .catalog, frameValue: -59))
        #expect(reading.pathLossExponent == 3)
        #expect(abs(reading.accuracy - 10) < 0.01, "(-65 - -95) / 30 = 1 decade")
        #expect(reading.exhibit?.name == "Vase")
    }

    @Test func everyFilterCanDriveTheEngine() throws {
        for kind in RSSIFilterKind.allCases {
            var configuration = RangingConfiguration()
            configuration.filter = try RSSIFilterKind(name: kind.rawValue)
            var noise = SeededNoise(seed: 26)
            var engine = RangingEngine(configuration: configuration)
            let beacon = ScriptedBeacon.iBeacon(minor: 1)
            let last = run(beacon.sightings(from: 0, to: 30, noise: &noise) { _ in 2 }, engine: &engine, until: 30).last!
            // A beacon at 2 m: the default model's prior (learned, 0.5 m typical) pulls the estimate
            // in to about 1.4 m, and the Android ARMA's integer truncation reads a few dB strong
            // (0.94 m); whatever the filter, the stated range holds the truth.
            let reading = last.beacons[0]
            #expect(reading.accuracy > 0.8 && reading.accuracy < 4, "\(kind): \(reading.accuracy)")
            #expect(reading.accuracyRange?.contains(2) == true, "\(kind): \(String(describing: reading.accuracyRange))")
        }
        #expect(throws: RangingConfigurationError.self) { try RSSIFilterKind(name: "median") }
    }

    @Test func configurationValidationNamesTheField() {
        var configuration = RangingConfiguration()
        configuration.forgetAfter = 1
        #expect(throws: RangingConfigurationError(field: "forgetAfter", reason: "must be at least staleAfter")) { try configuration.validate() }
        #expect(throws: Never.self) { try RangingConfiguration().validate() }
    }

    @Test func aCorruptTimestampDoesNotPoisonTheBeacon() {
        let beacon = ScriptedBeacon.iBeacon(minor: 12)
        var engine = RangingEngine(configuration: .plainLogDistance)
        for step in 0..<20 {
            let time = step == 10 ? Double.nan : Double(step) / 10
            engine.record(Sighting(time: time, identity: beacon.identity, measuredPower: -59, address: beacon.address, rssi: -65))
        }
        let reading = engine.tick(at: 2).beacons[0]
        #expect(reading.totalPackets == 19)
        #expect(abs(reading.accuracy - 2) < 0.01)
        var pipeline = BeaconPipeline(engine: RangingEngine())
        var ticks = 0
        pipeline.advance(to: .infinity) { _ in ticks += 1 }
        pipeline.advance(to: 5) { _ in ticks += 1 }
        pipeline.advance(to: 7) { _ in ticks += 1 }
        #expect(ticks == 1)
    }
}

extension RangingEngineTests {
    /// The tick's in-place reordering gives what `order.map { elements[$0] }` would, for every
    /// permutation of five elements.
    @Test func reorderingInPlaceAppliesThePermutation() {
        func permutations(_ items: [Int]) -> [[Int]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        let elements = ["a", "b", "c", "d", "e"]
        for order in permutations(Array(elements.indices)) {
            var reordered = elements
            RangingEngine.reorder(&reordered, by: order)
            #expect(reordered == order.map { elements[$0] })
        }
    }
}
