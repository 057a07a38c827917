import Foundation
import Ranging
import Survey
import Testing
import TestFixtures
import Venue

/// The JSON examples a user copies from the docs (a tick line, an agent's messages, a survey file)
/// are read by the program's own parsers, and their distances are the ones today's model gives for
/// their RSSI and exponent. The docs once kept the first model's exponent 2 and its narrow ranges
/// for weeks after the model changed; nothing else compares an example with the model.
@Suite struct DocumentedOutputExamplesTests {
    /// Examples show rounded values (RSSI to 0.1 dB, metres to 0.01), so they match the model to
    /// within this share; the retired models were off by 30% or more.
    static let tolerance = 0.03

    @Test func tickLineExampleRangesAsTheDefaultModel() throws {
        let lines = try DocumentedJSON.lines(in: "docs/formats.md", under: "## NDJSON tick lines")
        let first = try #require(lines.first)
        let tick = try #require(try DocumentedJSON.object(first))
        let beacons = try #require(tick["beacons"] as? [[String: Any]])
        try #require(!beacons.isEmpty)
        for beacon in beacons { try Self.expectDefaultModel(beacon, rssiKey: "filteredRssi") }
    }

    @Test func agentMessagesParseAndRangeAsTheDefaultModel() throws {
        let espresense = try #require(try DocumentedJSON.lines(in: "docs/venue.md", under: "### ESPresense device message").first)
        let message = try ESPresenseDeviceMessage(json: Array(espresense.utf8))
        #expect(message.json() == Array(espresense.utf8), "docs/venue.md's ESPresense example is not byte for byte what an agent writes")
        let power = try #require(message.rssiAt1m), rssi = try #require(message.rssi)
        Self.expectClose(try #require(message.distance), Self.estimate(x: power - rssi).distance, "ESPresense distance")

        let readingLine = try #require(try DocumentedJSON.lines(in: "docs/venue.md", under: "### beacontop reading").first)
        let reading = try ScannerReadingMessage.reading(json: Array(readingLine.utf8), scanner: "pi-hall-a", receivedAt: 0)
        #expect(reading.distance != nil)
        let object = try #require(try DocumentedJSON.object(readingLine))
        let beacon = try #require(object["beacon"] as? [String: Any])
        try Self.expectDefaultModel(beacon, rssiKey: "filteredRssi")
    }

    @Test func surveyFileExampleLoadsAndRangesAsTheDefaultModel() throws {
        let lines = try DocumentedJSON.lines(in: "docs/survey.md", under: "## The survey file")
        let session = try SurveyLog.decode(Data((lines.joined(separator: "\n") + "\n").utf8))
        let readings = session.samples.flatMap(\.readings)
        try #require(!readings.isEmpty)
        for reading in readings {
            #expect(reading.exponent == RangingConfiguration().pathLossExponent, "survey example's exponent \(reading.exponent)")
            Self.expectClose(try #require(reading.distance), Self.estimate(x: reading.measuredPower - reading.median).distance, "survey distance")
        }
    }

    private static func expectDefaultModel(_ beacon: [String: Any], rssiKey: String) throws {
        let exponent = try #require(beacon["pathLossExponent"] as? Double)
        #expect(exponent == RangingConfiguration().pathLossExponent, "example's pathLossExponent \(exponent)")
        #expect(beacon["rangeProbability"] as? Double == RangingConfiguration().rangeProbability)
        let power = try #require(beacon["measuredPower"] as? Double), rssi = try #require(beacon[rssiKey] as? Double)
        let model = estimate(x: power - rssi)
        expectClose(try #require(beacon["accuracy"] as? Double), model.distance, "accuracy")
        let range = try #require(beacon["accuracyRange"] as? [Double])
        try #require(range.count == 2)
        expectClose(range[0], model.range.lowerBound, "accuracyRange low")
        expectClose(range[1], model.range.upperBound, "accuracyRange high")
    }

    private static func estimate(x: Double) -> (distance: Double, range: ClosedRange<Double>) {
        let configuration = RangingConfiguration()
        guard case .posterior(let prior) = configuration.distanceModel else {
            Issue.record("the default distance model is no longer the posterior; update this test")
            return (0, 0...0)
        }
        return prior.table(exponent: configuration.pathLossExponent, probability: configuration.rangeProbability).estimate(x: x)
    }

    private static func expectClose(_ documented: Double, _ model: Double, _ what: String) {
        #expect(abs(documented - model) <= tolerance * model, "\(what): the docs say \(documented), today's model \(model)")
    }
}

/// JSON lines from the first fenced block after a heading; a line starting with a blank continues
/// the one before (the docs wrap long objects).
enum DocumentedJSON {
    struct Missing: Error, CustomStringConvertible { var description: String }

    static func lines(in path: String, under heading: String) throws -> [String] {
        let text = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = all.firstIndex(of: heading),
              let open = all[start...].firstIndex(where: { $0.hasPrefix("```") }),
              let close = all[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
            throw Missing(description: "\(path): no code block under '\(heading)'")
        }
        var result: [String] = []
        for line in all[(open + 1)..<close] where !line.isEmpty {
            if line.hasPrefix(" "), !result.isEmpty {
                result[result.count - 1] += line.drop(while: { $0 == " " })
            } else {
                result.append(line)
            }
        }
        return result
    }

    static func object(_ line: String) throws -> [String: Any]? {
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
}
