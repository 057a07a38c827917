import Foundation
import Ranging
import Testing
import TestFixtures
@testable import Survey

/// The survey file: saved a sample at a time, loaded back to resume, and refused with the line
/// and field when a line is garbled, without changing the file.
@Suite struct SurveyLogTests {
    static let hostileName = "Rosetta \"Stone\"\r\n\u{1B}[31m<b>&\u{202E} 🏺"

    static let session: SurveySession = {
        let plan = SurveyPlan(title: "Hall B", beacons: [
            SurveyPlan.Beacon(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1", name: hostileName, position: FloorPosition(x: 2, y: 3.5)),
            SurveyPlan.Beacon(id: "https://example.com/a,b", name: "URL beacon", position: nil),
        ], walls: [[[0, 0], [12, 0], [12, 8]]])
        var session = SurveySession(plan: plan, created: 1_700_000_000.25, catalogPath: "venue/hall b.yaml")
        for index in 0..<3 {
            session.add(SurveySample(
                index: 0, spot: FloorPosition(x: Double(index) * 1.5, y: 2.25), start: 1_700_000_010 + Double(index) * 7,
                end: 1_700_000_015 + Double(index) * 7,
                readings: [
                    SpotReading(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1", packets: 48, median: -67.5, low: -72, high: -63.1,
                                measuredPower: -59, exponent: 2, distance: 2.66),
                    SpotReading(id: "https://example.com/a,b", packets: 3, median: -90, low: -91, high: -88, measuredPower: -62,
                                exponent: 2.4, distance: nil),
                ]))
        }
        return session
    }()

    @Test func aSurveyRoundTripsThroughItsFile() throws {
        let text = SurveyLog.encode(Self.session)
        #expect(text.split(separator: "\n").count == 4, "a survey line and one line per sample")
        #expect(!text.unicodeScalars.contains("\u{1B}"), "JSON escapes control characters")
        let loaded = try SurveyLog.decode(Data(text.utf8))
        #expect(loaded == Self.session)
        #expect(loaded.plan.beacons[0].name == Self.hostileName)
        #expect(SurveyLog.encode(loaded) == text, "saved again, byte for byte")
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("survey-log-\(UUID().uuidString).ndjson").path
    }

    @Test func aSurveySavedSampleBySampleResumesWhereItStopped() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let file = try LineFileAppender(path: path, mode: .create)
            try file.write(SurveyLog.headerLine(Self.session))
            for sample in Self.session.samples.prefix(2) { try file.write(SurveyLog.sampleLine(sample)) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var resumed = try SurveyLog.load(path: path)
        #expect(resumed.samples.count == 2)
        #expect(resumed.nextIndex == 3)

        var next = Self.session.samples[2]
        next.index = 0
        resumed.add(next)
        try LineFileAppender(path: path, mode: .append).write(SurveyLog.sampleLine(resumed.samples[2]))
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.prefix(before.count) == before, "what was saved is untouched")
        #expect(try SurveyLog.load(path: path) == Self.session)
    }

    @Test func startingASurveyOverAnExistingOneIsRefused() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(SurveyLog.encode(Self.session).utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SurveyFileError.self) { try LineFileAppender(path: path, mode: .create) }
        #expect(error.description.contains("already exists"))
        #expect(try SurveyLog.load(path: path) == Self.session)
    }

    @Test func resumingAFileWithoutItsLastNewlineStartsANewLine() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = SurveyLog.encode(Self.session)
        text.removeLast()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try SurveyLog.load(path: path).samples.count == 3, "a last line without its newline is still whole")
        var sample = Self.session.samples[0]
        sample.index = 4
        try LineFileAppender(path: path, mode: .append).write(SurveyLog.sampleLine(sample))
        #expect(try SurveyLog.load(path: path).samples.map(\.index) == [1, 2, 3, 4])
    }

    /// Each garbled variant of line 3 (the second sample): the error names line 3 and the field,
    /// and loading leaves the file as it was.
    @Test(arguments: [
        ("this is not JSON", nil, "not a JSON object"),
        (#"{"type":"sample","index":"two"}"#, "index", "must be a number"),
        (#"{"type":"sample","index":2,"x":0,"y":0,"start":0,"end":1}"#, "readings", "missing"),
        (#"{"type":"sample","index":2,"x":0,"y":0,"start":0,"end":1,"readings":[{"id":"a","packets":1,"median":-60,"low":-61,"high":-59,"measuredPower":-59,"exponent":2},{"id":"b","packets":1,"median":"loud","low":-61,"high":-59,"measuredPower":-59,"exponent":2}]}"#,
         "readings[1].median", "must be a number"),
        (#"{"type":"sample","index":2,"x":0,"y":0,"start":0,"end":1,"readings":[{"id":"a","packets":1,"median":-60,"low":-50,"high":-59,"measuredPower":-59,"exponent":2}]}"#,
         "readings[0]", "low <= median <= high"),
        (#"{"type":"sample","index":1,"x":0,"y":0,"start":0,"end":1,"readings":[]}"#, "index", "sample 1 after sample 1"),
        (#"{"type":"sample","index":2,"x":0,"y":0,"start":5,"end":1,"readings":[]}"#, "end", "before start"),
        // Loaded, the next sample's number overflowed: `--resume` crashed at the first sample.
        (#"{"type":"sample","index":9223372036854775807,"x":0,"y":0,"start":0,"end":1,"readings":[]}"#, "index", "more than 1000000000"),
        (#"{"type":"note","text":"hello"}"#, "type", "unknown line type"),
        (#"{"type":"survey","version":1,"created":0,"plan":{"beacons":[],"walls":[]}}"#, "type", "a second \"survey\" line"),
        ("[1, 2, 3]", nil, "not a JSON object"),
    ] as [(String, String?, String)])
    func aGarbledLineIsNamedAndNothingIsLost(line: String, field: String?, reason: String) throws {
        var lines = SurveyLog.encode(Self.session).split(separator: "\n").map(String.init)
        lines[2] = line
        try Self.expectRefused(Data((lines.joined(separator: "\n") + "\n").utf8), line: 3, field: field, reason: reason)
    }

    static func expectRefused(_ data: Data, line: Int, field: String?, reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SurveyFileError.self, sourceLocation: sourceLocation) { try SurveyLog.load(path: path) }
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.field == field, sourceLocation: sourceLocation)
        #expect(error.reason.contains(reason), "\(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("survey \(path) line \(line)"), sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "loading never writes", sourceLocation: sourceLocation)
    }

    @Test func bytesThatAreNotTextAndACutLastLineAreNamed() throws {
        var data = Data(SurveyLog.encode(Self.session).utf8)
        var broken = data
        broken.insert(contentsOf: [0xFF, 0xFE], at: broken.count - 20)
        try Self.expectRefused(broken, line: 4, field: nil, reason: "not UTF-8 text")

        data.removeLast(30)
        try Self.expectRefused(data, line: 4, field: nil, reason: "cut short")
    }

    @Test func emptyFilesWrongStartsAndNewerVersionsAreRefused() throws {
        try Self.expectRefused(Data(), line: 1, field: nil, reason: "empty")
        try Self.expectRefused(Data("\n\n".utf8), line: 1, field: nil, reason: "empty")
        let sampleFirst = SurveyLog.sampleLine(Self.session.samples[0])
        try Self.expectRefused(Data(sampleFirst.utf8), line: 1, field: "type", reason: "before the \"survey\" line")
        let newer = SurveyLog.headerLine(Self.session).replacingOccurrences(of: "\"version\":1", with: "\"version\":9")
        try Self.expectRefused(Data(newer.utf8), line: 1, field: "version", reason: "newer")
    }

    @Test func blankLinesAndCRLFLineEndingsAreRead() throws {
        let text = SurveyLog.encode(Self.session).replacingOccurrences(of: "\n", with: "\r\n\r\n")
        #expect(try SurveyLog.decode(Data(text.utf8)) == Self.session)
    }
}

/// The survey files in Tests/SurveyFiles are what `SurveyLog` writes for this suite's session and
/// for `SurveyFixture`'s hall: the fuzz harness's seeds (Fuzz/seeds.py), kept true to the writer
/// here, so a format change shows as a diff rather than leaving the fuzzer stale seeds.
@Suite struct SurveyFileFixtureTests {
    static func fixture(_ name: String) -> URL { SharedData.repositoryRoot.appendingPathComponent("Tests/SurveyFiles/\(name)") }

    @Test(arguments: ["hostile-names.survey.ndjson", "hall-b.survey.ndjson"])
    func theFixtureIsWhatTheWriterWrites(name: String) throws {
        let session = name == "hall-b.survey.ndjson" ? try SurveyFixture.session() : SurveyLogTests.session
        let written = SurveyLog.encode(session)
        if ProcessInfo.processInfo.environment["BEACONTOP_WRITE_SURVEY_FIXTURES"] == "1" {
            try written.write(to: Self.fixture(name), atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: Self.fixture(name), encoding: .utf8)
        #expect(stored == written)
        #expect(try SurveyLog.decode(Data(stored.utf8)) == session)
    }
}
