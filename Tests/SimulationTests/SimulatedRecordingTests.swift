import Captures
import Foundation
import HCI
import Testing
@testable import Simulation

@Suite struct SimulatedRecordingTests {
    @Test func theCaptureHoldsExactlyTheSimulatedAdvertisementsAndTheTruthLinesUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("walk.btsnoop").path
        let truth = SimulatedRecording.truthPath(forCapture: capture)
        #expect(truth.hasSuffix("walk.truth.ndjson"))
        let scenario = MuseumScenario.make(seed: 2)
        let summary = try SimulatedRecording.write(scenario: scenario, seed: 2, duration: 30, truthStep: 0.5,
                                                   capturePath: capture, truthPath: truth)

        var expected: [Advertisement] = []
        var simulator = RadioSimulator(scenario: scenario, seed: 2)
        while let r = simulator.next(), r.advertisement.timestamp - scenario.startTime <= 30 { expected.append(r.advertisement) }
        var reader = try CaptureReader(path: capture)
        var decoder = AdvertisingReportDecoder()
        var read: [Advertisement] = []
        while let packet = try reader.next() {
            try decoder.decode(packet) { ad in
                var copy = ad
                copy.data = ArraySlice(Array(ad.data))
                read.append(copy)
            }
        }
        #expect(summary.packets == expected.count && read.count == expected.count)
        for (a, b) in zip(read, expected) {
            #expect(abs(a.timestamp - b.timestamp) < 1e-6) // btsnoop keeps microseconds
            #expect(a.address == b.address && a.rssi == b.rssi && Array(a.data) == Array(b.data))
        }

        let lines = try String(contentsOfFile: truth, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 61 && summary.truthSamples == 61) // header, then t = 0, 0.5, ... 30
        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(first["t"] as? Double == scenario.startTime)
        #expect(first["position"] as? [Double] == [8, 0])
    }

    @Test func theSameSeedWritesTheSameBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func record(_ name: String, seed: UInt64) throws -> (Data, Data) {
            let capture = directory.appendingPathComponent(name).path
            let truth = SimulatedRecording.truthPath(forCapture: capture)
            _ = try SimulatedRecording.write(scenario: TradeShowScenario.make(seed: seed), seed: seed, duration: 20,
                                             truthStep: 1, capturePath: capture, truthPath: truth)
            return (try Data(contentsOf: URL(fileURLWithPath: capture)), try Data(contentsOf: URL(fileURLWithPath: truth)))
        }
        let a = try record("a.btsnoop", seed: 5), b = try record("b.btsnoop", seed: 5), c = try record("c.btsnoop", seed: 6)
        #expect(a == b)
        #expect(a.0 != c.0)
    }

    @Test func anUnwritablePathIsAnErrorNamingIt() {
        #expect(throws: CaptureError.self) {
            try SimulatedRecording.write(scenario: MuseumScenario.make(seed: 1), seed: 1, duration: 1, truthStep: 1,
                                         capturePath: "/nonexistent-dir/x.btsnoop", truthPath: "/nonexistent-dir/x.truth.ndjson")
        }
    }
}
