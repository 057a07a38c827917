import BeaconFormats
import Foundation
import HCI
import Ranging
import Testing
import TestFixtures
@testable import Survey

/// A sample's readings and a spot's coverage.
@Suite struct SurveyModelTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
    static func beacon(_ minor: UInt16) -> BeaconIdentity { .iBeacon(uuid: uuid, major: 1, minor: minor) }

    /// The Herald rig's real RSSI at one distance (pixel2-pixel3, 1 cm steps).
    static func heraldRSSI(atCentimetres distance: Int) throws -> [Int] {
        let text = try String(contentsOf: SharedData.heraldFile, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let cells = line.split(separator: ",")
            guard cells.count == 3, Int(cells[2]) == distance, let rssi = Double(cells[1]) else { return nil }
            return Int(rssi)
        }
    }

    /// Sorting reference: the quantile interpolated between the two nearest ranks.
    static func reference(_ values: [Int], _ q: Double) -> Double {
        let sorted = values.sorted().map(Double.init)
        let rank = q * Double(sorted.count - 1)
        let low = Int(rank)
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    @Test func aSamplesQuantilesAreThoseOfWhatWasHeard() throws {
        let rssi = try Self.heraldRSSI(atCentimetres: 100)
        #expect(rssi.count == 292)
        var collector = SampleCollector(spot: FloorPosition(x: 1, y: 2), start: 100)
        collector.add(time: 99.9, identity: Self.beacon(1), rssi: -20, measuredPower: -59)
        for (index, value) in rssi.enumerated() {
            collector.add(time: 100 + Double(index) * 0.1, identity: Self.beacon(1), rssi: value, measuredPower: -59)
        }
        collector.add(time: 101, identity: .eddystoneTLM(BDAddress(rawValue: 1)), rssi: -40, measuredPower: nil)
        let sample = collector.finish(index: 1, end: 130)
        let reading = try #require(sample.reading(id: Self.beacon(1).description))
        #expect(sample.readings.count == 1, "TLM names no beacon")
        #expect(reading.packets == 292, "the packet before the start is not counted")
        #expect(reading.median == (Self.reference(rssi, 0.5) * 10).rounded() / 10)
        #expect(reading.low == (Self.reference(rssi, 0.1) * 10).rounded() / 10)
        #expect(reading.high == (Self.reference(rssi, 0.9) * 10).rounded() / 10)
        #expect(reading.measuredPower == -59)
        let ranging = RangingConfiguration()
        let expected = try #require(ranging.distanceModel.distance(rssi: reading.median, measuredPower: -59, pathLossExponent: ranging.pathLossExponent))
        #expect(reading.distance == (expected * 100).rounded() / 100)
        #expect(sample.spot == FloorPosition(x: 1, y: 2))
        #expect(sample.start == 100 && sample.end == 130)
    }

    @Test func theCatalogsCalibrationAndExponentAreUsedAsInRanging() throws {
        let catalog = ExhibitCatalog(exhibits: [Exhibit(id: Self.beacon(2).description, name: "Clock", measuredPower: -65, pathLossExponent: 2.5)])
        var collector = SampleCollector(spot: FloorPosition(x: 0, y: 0), start: 0, catalog: catalog)
        for _ in 0..<5 { collector.add(time: 1, identity: Self.beacon(2), rssi: -75, measuredPower: -59) }
        for _ in 0..<5 { collector.add(time: 1, identity: Self.beacon(3), rssi: -75, measuredPower: 12) }
        let sample = collector.finish(index: 1, end: 5)
        let calibrated = try #require(sample.reading(id: Self.beacon(2).description))
        #expect(calibrated.measuredPower == -65 && calibrated.exponent == 2.5)
        let model = RangingConfiguration().distanceModel
        let expected = try #require(model.distance(rssi: -75, measuredPower: -65, pathLossExponent: 2.5))
        #expect(calibrated.distance == (expected * 100).rounded() / 100, "ranging's model with the catalog's power and exponent")
        let rule = CoverageRule()
        #expect(rule.level(calibrated) == (-75 + 65) * rule.levelExponent / 2.5, "scaled to the default exponent, as the nearest rule")
        let nonsense = try #require(sample.reading(id: Self.beacon(3).description))
        #expect(nonsense.measuredPower == -59, "a +12 dBm frame gets the default, as in ranging")
    }

    @Test func aSampleKeepsAtMostAsManyBeaconsAsRanging() {
        var ranging = RangingConfiguration()
        ranging.maxBeacons = 3
        var collector = SampleCollector(spot: FloorPosition(x: 0, y: 0), start: 0, ranging: ranging)
        for minor in UInt16(1)...10 { collector.add(time: 1, identity: Self.beacon(minor), rssi: -70, measuredPower: -59) }
        collector.add(time: 2, identity: Self.beacon(1), rssi: -70, measuredPower: -59)
        #expect(collector.beaconCount == 3)
        #expect(collector.packetsLeftOut == 7)
        #expect(collector.finish(index: 1, end: 5).readings.first { $0.id == Self.beacon(1).description }?.packets == 2)
    }

    static func reading(_ minor: UInt16, median: Double, power: Double = -59) -> SpotReading {
        SpotReading(id: beacon(minor).description, packets: 20, median: median, low: median - 3, high: median + 3,
                    measuredPower: power, exponent: RangingConfiguration().pathLossExponent, distance: nil)
    }

    static func coverage(_ readings: [SpotReading], exhibits: Set<String> = []) -> SpotCoverage {
        SpotCoverage(SurveySample(index: 1, spot: FloorPosition(x: 0, y: 0), start: 0, end: 5, readings: readings), exhibits: exhibits)
    }

    @Test func aSpotIsCoveredAmbiguousOrUncovered() {
        let rule = CoverageRule()
        #expect(rule.threshold == -80)
        #expect(rule.ambiguityMargin == RangingConfiguration().nearestHysteresis)

        let clear = Self.coverage([Self.reading(1, median: -62), Self.reading(2, median: -70)])
        #expect(clear.status == .covered)
        #expect(clear.nearest == Self.beacon(1).description)
        #expect(clear.lead == 8)

        // Levels -6.0 and -6.5 dB relative to 1 m: within the 1 dB switch margin.
        let close = Self.coverage([Self.reading(1, median: -65), Self.reading(2, median: -66.5, power: -60)])
        #expect(close.status == .ambiguous)
        #expect(close.runnerUp == Self.beacon(2).description)
        #expect(close.lead == 0.5)

        // Both far (-16 dB): still candidates, as in the monitor, where nobody waits for a distance
        // floor, so the spot is as ambiguous as a near one.
        let far = Self.coverage([Self.reading(1, median: -75), Self.reading(2, median: -75.5)])
        #expect(far.status == .ambiguous)
        #expect(far.nearest == Self.beacon(1).description)
        #expect(far.strongest?.id == Self.beacon(1).description)

        let weak = Self.coverage([Self.reading(1, median: -81), Self.reading(2, median: -90)])
        #expect(weak.status == .noCoverage)
        #expect(Self.coverage([]).status == .noCoverage)
        #expect(Self.coverage([Self.reading(1, median: -80)]).status == .covered, "the threshold itself is reached")
    }

    @Test func withACatalogOnlyItsExhibitsAreNearestCandidates() {
        let readings = [Self.reading(1, median: -60), Self.reading(2, median: -60.5)]
        let planned = Self.coverage(readings, exhibits: [Self.beacon(2).description])
        #expect(planned.status == .covered)
        #expect(planned.nearest == Self.beacon(2).description)
        #expect(planned.strongest?.id == Self.beacon(1).description, "the strongest beacon is any beacon")
    }

    @Test func theSessionNumbersSamplesAndListsBeaconsPlanFirst() {
        let plan = SurveyPlan(title: "Hall", beacons: [
            SurveyPlan.Beacon(id: Self.beacon(9).description, name: "Nine", position: FloorPosition(x: 1, y: 1)),
            SurveyPlan.Beacon(id: Self.beacon(3).description, name: "Three", position: nil),
        ], walls: [])
        var session = SurveySession(plan: plan, created: 0)
        session.add(SurveySample(index: 7, spot: FloorPosition(x: 0, y: 0), start: 0, end: 5, readings: [Self.reading(3, median: -70), Self.reading(5, median: -90)]))
        session.add(SurveySample(index: 7, spot: FloorPosition(x: 1, y: 0), start: 5, end: 10, readings: [Self.reading(9, median: -60)]))
        #expect(session.samples.map(\.index) == [1, 2])
        #expect(session.beaconIDs == [Self.beacon(9), Self.beacon(3), Self.beacon(5)].map(\.description))
        #expect(SurveyPlan.label(0) == "A" && SurveyPlan.label(25) == "Z" && SurveyPlan.label(26) == "AA" && SurveyPlan.label(27) == "AB")
    }
}
