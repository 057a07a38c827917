import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Ranging
import Testing
import TestFixtures
@testable import Survey

/// The report's SVG maps, read back as XML (one element per sample and per beacon, a legend) and
/// drawn by a real renderer (librsvg's rsvg-convert) so they are known to draw.
@Suite struct CoverageMapTests {
    static func document(_ svg: String) throws -> XMLDocument {
        try XMLDocument(data: Data(svg.utf8), options: [])
    }

    /// Elements whose class list holds `name` (the SVG namespace is the default, so by local name).
    static func elements(_ document: XMLDocument, class name: String) throws -> [XMLNode] {
        try document.nodes(forXPath: "//*[contains(concat(' ', @class, ' '), ' \(name) ')]")
    }

    @Test func theOverviewHasASampleAndABeaconEachAndALegend() throws {
        let session = try SurveyFixture.session()
        let svg = CoverageMapSVG.overview(session)
        let document = try Self.document(svg)
        #expect(document.rootElement()?.name == "svg")
        #expect(try Self.elements(document, class: "sample").count == session.samples.count)
        #expect(try Self.elements(document, class: "beacon").count == 5, "the five placed beacons; the desk has no position")
        #expect(try Self.elements(document, class: "wall").count == 8, "four outline sides and four partitions")
        let legend = try #require(try document.nodes(forXPath: "//*[@id='legend']").first)
        let legendText = legend.stringValue ?? ""
        #expect(legendText.contains("dBm"))
        #expect(legendText.contains("-80 dBm"), "the coverage threshold on the scale")
        #expect(legendText.contains("Audio guide desk (no position)"))
        #expect(try Self.elements(document, class: "color-scale").count == 1)
        let coverage = session.coverage()
        let ambiguous = coverage.filter { $0.status == .ambiguous }.count
        let uncovered = coverage.filter { $0.status == .noCoverage }.count
        #expect(try Self.elements(document, class: "ambiguous").count == ambiguous)
        #expect(try Self.elements(document, class: "no-coverage").count == uncovered)
        #expect(ambiguous > 0 && uncovered > 0, "the fixture shows every mark: \(ambiguous) ambiguous, \(uncovered) uncovered")
    }

    @Test func eachBeaconHasItsMapWithEverySample() throws {
        let session = try SurveyFixture.session()
        let files = SurveyReport.files(session)
        #expect(files.map(\.name) == ["overview.svg", "beacon-A.svg", "beacon-B.svg", "beacon-C.svg", "beacon-D.svg", "beacon-E.svg", "samples.csv"])
        for file in files where file.name.hasPrefix("beacon-") {
            let document = try Self.document(file.contents)
            #expect(try Self.elements(document, class: "sample").count == session.samples.count, "\(file.name)")
            #expect(try Self.elements(document, class: "beacon").count == 5, "\(file.name)")
            #expect(try Self.elements(document, class: "focus").count == 1, "\(file.name): its beacon stands out")
            #expect(try document.nodes(forXPath: "//*[@id='legend']").count == 1)
        }
        // Lewis Chessmen (B) is two walls and 13 m away from the empty wing.
        let chessmen = try Self.document(files[2].contents)
        let unheard = try Self.elements(chessmen, class: "not-heard").count
        let expected = session.samples.filter { $0.reading(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2") == nil }.count
        #expect(unheard == expected)
        #expect(unheard > 0)
    }

    /// A beacon heard that the plan does not name gets the next letter, its own map, and a line in
    /// every map's list of beacons, so `beacon-G.svg` is found in the list.
    @Test func aBeaconNotInThePlanIsListedByItsLetter() throws {
        var session = try SurveyFixture.session()
        var sample = session.samples[0]
        sample.readings.append(SpotReading(id: "https://example.com", packets: 9, median: -71, low: -73, high: -69,
                                           measuredPower: -59, exponent: 1.49, distance: 4))
        session.add(sample)
        let letter = SurveyPlan.label(session.plan.beacons.count)
        let files = SurveyReport.files(session)
        let map = try #require(files.first { $0.name == "beacon-\(letter).svg" })
        #expect(map.contents.contains("Coverage of https://example.com"))
        for file in files where file.name.hasSuffix(".svg") {
            let legend = try #require(try Self.document(file.contents).nodes(forXPath: "//*[@id='legend']").first)
            let text = try #require(legend.stringValue)
            #expect(text.contains("\(letter)https://example.com (not in the plan)"), "\(file.name): \(text)")
        }
    }

    /// A sample taken at a beacon (checking its placement) is drawn over the beacon's triangle, so
    /// its value reads; other samples stay under the beacons, whose letters then read.
    @Test func aSampleAtABeaconIsDrawnOverIt() throws {
        var session = try SurveyFixture.session()
        let beacon = try #require(session.plan.beacons.first { $0.position != nil })
        var sample = session.samples[0]
        let position = try #require(beacon.position)
        (sample.x, sample.y) = (position.x, position.y)
        session.add(sample)
        let index = try #require(session.samples.last?.index)
        for file in SurveyReport.files(session) where file.name.hasSuffix(".svg") {
            let marks = try Self.document(file.contents).nodes(
                forXPath: "//*[contains(concat(' ', @class, ' '), ' sample ') or contains(concat(' ', @class, ' '), ' beacon ')]")
            let tags = marks.map { String($0.xmlString.prefix(while: { $0 != ">" })) }
            #expect(tags.first?.hasPrefix("<g class=\"sample") == true, "\(file.name): samples away from beacons first: \(tags)")
            #expect(tags.last?.contains("data-index=\"\(index)\"") == true, "\(file.name): the sample at the beacon last: \(tags)")
        }
    }

    @Test func hostileNamesStayText() throws {
        let plan = SurveyPlan(title: "Hall <script>alert(1)</script> & \u{1B}[2J", beacons: [
            SurveyPlan.Beacon(id: "id-1", name: "Vase \"<b>\" & 'cup'\u{0}\u{7}\r\n\u{202E}drow", position: FloorPosition(x: 1, y: 1)),
        ], walls: [])
        var session = SurveySession(plan: plan, created: 0)
        session.add(SurveySample(index: 1, spot: FloorPosition(x: 2, y: 2), start: 0, end: 5, readings: [
            SpotReading(id: "id-1", packets: 5, median: -70, low: -72, high: -68, measuredPower: -59, exponent: 2, distance: 3.5),
        ]))
        for svg in [CoverageMapSVG.overview(session), CoverageMapSVG.beaconMap(session, beaconID: "id-1")] {
            let document = try Self.document(svg)
            #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
            #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character reaches the file")
            #expect(!svg.unicodeScalars.contains("\u{202E}"))
            let text = document.rootElement()?.stringValue ?? ""
            #expect(text.contains("Hall <script>alert(1)</script> & \u{FFFD}[2J"), "the title as text, escape replaced")
        }
    }

    /// The CSV of every sample: a row per beacon heard per sample, numbers as in the survey file.
    @Test func theSampleTableHasARowPerReading() throws {
        let session = try SurveyFixture.session()
        let csv = SurveyCSV.csv(session)
        let rows = csv.split(separator: "\r\n", omittingEmptySubsequences: true)
        #expect(rows.first == Substring(SurveyCSV.columns.joined(separator: ",")))
        let readings = session.samples.reduce(0) { $0 + max(1, $1.readings.count) }
        #expect(rows.count == 1 + readings)
        let first = session.samples[0]
        let reading = first.readings[0]
        #expect(rows[1].hasPrefix("1,0.75,0.75,1700000010,1700000015,\(reading.id),"))
        #expect(rows[1].contains(",\(reading.packets),\(SVGDocument.number(reading.median)),"))
    }

    static func rsvgConvert() throws -> String {
        try TestPrerequisites.requireTool("rsvg-convert", install: "run Tests/setup.sh (apt-get install librsvg2-bin)")
    }

    /// Every map of the report drawn to PNG by librsvg: exit 0, a PNG of the SVG's width.
    @Test func everyMapDrawsWithARealRenderer() throws {
        let converter = try Self.rsvgConvert()
        // SURVEY_PICTURES=DIR keeps the files (how docs/images/survey-overview.png was made).
        let kept = ProcessInfo.processInfo.environment["SURVEY_PICTURES"].map { URL(fileURLWithPath: $0) }
        let directory = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("survey-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: directory) } }
        for file in SurveyReport.files(try SurveyFixture.session()) where file.name.hasSuffix(".svg") {
            let svg = directory.appendingPathComponent(file.name)
            let png = svg.deletingPathExtension().appendingPathExtension("png")
            try Data(file.contents.utf8).write(to: svg)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: converter)
            process.arguments = ["--format", "png", "--output", png.path, svg.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(file.name): \(message)")
            let bytes = [UInt8](try Data(contentsOf: png))
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(file.name) is a PNG")
            // IHDR: width and height, big-endian, at bytes 16-23.
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 1040, "\(file.name): \(width) px wide")
            #expect(bytes.count > 20_000, "\(file.name): \(bytes.count) bytes, a drawing rather than a blank page")
        }
    }
    static func survey(far: String, sampleX: String = "3") -> String {
        #"{"created":1700000000.25,"plan":{"beacons":[{"id":"https://example.com/a","name":"URL beacon","x":1,"y":1}],"walls":[[[0,0],[12,0],[FAR,8]],[[-FAR,0],[0,-1]]]},"type":"survey","version":1}"#
            .replacingOccurrences(of: "FAR", with: far) + "\n"
            + #"{"end":1700000015,"index":1,"readings":[{"exponent":2,"high":-60,"id":"https://example.com/a","low":-70,"measuredPower":-59,"median":-65,"packets":9}],"start":1700000010,"type":"sample","x":X,"y":2.25}"#
            .replacingOccurrences(of: "X", with: sampleX) + "\n"
    }

    /// fuzz-survey: a survey file with a wall point at 1.8e31 m drew a grid line every 100 m, 10^29
    /// of them (past 2^53 m adding the step no longer moved the line at all). Such a file is now
    /// refused (`SurveyLogTests`), and the grid keeps about 12 lines across on the largest plan
    /// taken, 2000 km (20,000 lines each way before), and on the floors it drew before as before.
    @Test func theLargestPlanDrawsAFewGridLines() throws {
        let session = try SurveyLog.decode(Data(Self.survey(far: "1000000").utf8))
        let files = SurveyReport.files(session)
        #expect(files.map(\.name) == ["overview.svg", "beacon-A.svg", "samples.csv"])
        for file in files where file.name.hasSuffix(".svg") {
            let grid = try #require(file.contents.split(separator: "\n").first { $0.contains("class=\"grid\"") })
            #expect(grid.filter { $0 == "M" }.count <= 2 * 17, "\(file.name): \(grid.prefix(300))")
        }
    }

    @Test(arguments: ["1000000.5", "18888888888888888888888888888882", "1e17", "1.7e308"])
    func aFarCoordinateIsRefusedWithItsField(far: String) throws {
        #expect(throws: SurveyFileError(line: 1, field: "plan.walls[0][2][0]", reason: FloorPosition.refusal(Double(far)!)!)) {
            _ = try SurveyLog.decode(Data(Self.survey(far: far).utf8))
        }
        #expect(throws: SurveyFileError(line: 2, field: "x", reason: FloorPosition.refusal(Double(far)!)!)) {
            _ = try SurveyLog.decode(Data(Self.survey(far: "12", sampleX: far).utf8))
        }
    }

    @Test func theGridStepIsOneTwoOrFiveTimesAPowerOfTen() {
        let steps = [0.5, 10, 16, 16.1, 30, 80, 100, 800, 1600, 1601, 2e4, 1e17, 1.7e308].map { MapCanvas.gridStep($0) }
        #expect(steps == [1, 1, 1, 2, 2, 5, 10, 50, 100, 200, 2000, 1e16, 2e307])
        #expect(MapCanvas.gridStep(.infinity) == nil && MapCanvas.gridStep(.nan) == nil)
        #expect(MapCanvas.gridLines(-0.5, 12.5, step: 1) == (0...12).map(Double.init))
        #expect(MapCanvas.gridLines(1e29, 1e29 + 5e27, step: 1e28).count == 1, "counted: adding the step to 1e29 moves it")
        #expect(MapCanvas.gridLines(0, 1e300, step: 1).count == 65, "at most 65 even for a step too small")
    }
}
