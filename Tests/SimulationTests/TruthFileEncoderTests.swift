import Foundation
import Testing
@testable import Simulation

@Suite struct TruthFileEncoderTests {
    @Test func headerAndSamplesAreJSONWithTheDocumentedFields() throws {
        let scenario = MuseumScenario.make(seed: 1)
        let simulator = RadioSimulator(scenario: scenario, seed: 1)
        let header = TruthFileEncoder.header(scenario: scenario, truths: simulator.truths, seed: 1,
                                             duration: scenario.duration, stays: GroundTruth.stays(scenario))
        let h = try #require(JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        #expect(h["scenario"] as? String == MuseumScenario.title)
        #expect(h["seed"] as? Int == 1)
        let beacons = try #require(h["beacons"] as? [[String: Any]])
        #expect(beacons.count == 10)
        #expect(beacons[0]["id"] as? String == "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:1")
        #expect(beacons[0]["name"] as? String == "Rosetta Stone (cast)")
        #expect(beacons[0]["position"] as? [Double] == [1, 2])
        #expect(abs((beacons[0]["powerAt1m"] as! Double) - simulator.truths[0].powerAt1m) < 0.01)
        #expect((h["stays"] as? [[String: Any]])?.count == 10)

        let sample = GroundTruth.sample(scenario, at: scenario.plan.stays[3].start + 1)
        let line = TruthFileEncoder.line(sample, scenario: scenario)
        #expect(!line.contains("\n"))
        let s = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(abs((s["t"] as! Double) - sample.time) < 0.001)
        #expect(s["visiting"] as? String == scenario.beacons[3].identity.description)
        #expect(s["nearest"] as? String == scenario.beacons[3].identity.description)
        let distances = try #require(s["distances"] as? [String: Double])
        #expect(distances.count == 10)
        #expect(abs(distances[scenario.beacons[3].identity.description]! - sample.distances[3]) < 0.001)
        let walking = TruthFileEncoder.line(GroundTruth.sample(scenario, at: 0.5), scenario: scenario)
        #expect(walking.contains("\"visiting\":null"))
    }
}
