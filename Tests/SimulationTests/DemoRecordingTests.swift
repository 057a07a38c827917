import Foundation
import Testing
import TestFixtures
@testable import Simulation

/// The recordings in `demo/` are exactly what `simulate` makes today: if the model or a scenario
/// changes, this fails until they are regenerated (docs/formats.md "Demo files" has the commands).
@Suite struct DemoRecordingTests {
    static func regenerate(_ style: VenueStyle, truthStep: Double, name: String) throws -> (capture: Data, truth: Data) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent(name).path
        let truth = SimulatedRecording.truthPath(forCapture: capture)
        let scenario = style.scenario(seed: 1)
        _ = try SimulatedRecording.write(scenario: scenario, seed: 1, duration: scenario.duration, truthStep: truthStep,
                                         capturePath: capture, truthPath: truth)
        return (try Data(contentsOf: URL(fileURLWithPath: capture)), try Data(contentsOf: URL(fileURLWithPath: truth)))
    }

    static func committed(_ name: String) throws -> Data {
        try Data(contentsOf: SharedData.repositoryRoot.appendingPathComponent("demo").appendingPathComponent(name))
    }

    @Test func theMuseumWalkRecordingIsReproducible() throws {
        let fresh = try Self.regenerate(.museum, truthStep: 0.5, name: "museum-walk.btsnoop")
        #expect(fresh.capture == (try Self.committed("museum-walk.btsnoop")))
        #expect(fresh.truth == (try Self.committed("museum-walk.truth.ndjson")))
        #expect(fresh.capture.count < 2_000_000)
    }

    @Test func theTradeShowRecordingIsReproducible() throws {
        let fresh = try Self.regenerate(.tradeshow, truthStep: 1, name: "tradeshow.btsnoop")
        #expect(fresh.capture == (try Self.committed("tradeshow.btsnoop")))
        #expect(fresh.truth == (try Self.committed("tradeshow.truth.ndjson")))
    }
}
