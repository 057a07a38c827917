import Foundation
import PrintableText
@testable import Ranging
import Sessions
import Testing
import TestFixtures

/// The dwell report's text trims each row's trailing blanks with a plain scan now, not a regex
/// built per call; these hold it to the regex's bytes.
@Suite("Dwell report text")
struct DwellReportTextTests {
    /// `alignedLines` as it was, trimming each row with `replacing(/\s+$/, with: "")`.
    static func regexAlignedLines(header: [String], rows: [[String]], firstNumeric: Int) -> [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column >= firstNumeric ? pad + cell : cell + pad
            }.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
        return [format(header)] + rows.map(format)
    }

    /// `DwellReportRenderer.text` as it was, through the regex rows.
    static func regexText(_ report: DwellReport) -> String {
        let named = report.rows.contains { $0.name != $0.id }
        let header = ["exhibit", "name", "visits", "total", "mean", "longest"].enumerated().filter { named || $0.offset != 1 }.map(\.element)
        let rows = report.rows.map { row in
            [PrintableText.line(row.id), PrintableText.line(row.name), String(row.visits),
             DwellReportRenderer.duration(row.total), DwellReportRenderer.duration(row.mean), DwellReportRenderer.duration(row.longest)]
                .enumerated().filter { named || $0.offset != 1 }.map(\.element)
        }
        var lines = report.title.map { [PrintableText.line($0)] } ?? []
        lines += regexAlignedLines(header: header, rows: rows, firstNumeric: named ? 2 : 1)
        if rows.isEmpty { lines.append("(no exhibit was nearest)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func report(_ path: String, catalog: String?) throws -> DwellReport {
        let engine = RangingEngine(catalog: try catalog.map { try ExhibitCatalog(contentsOf: SharedData.repositoryRoot.appendingPathComponent($0)) })
        var pipeline = BeaconPipeline(engine: engine, tickInterval: 1)
        let outcome = CaptureReplay.run(path: path, pipeline: &pipeline) { _ in }
        #expect(outcome.cannotRead == nil, "\(path)")
        return pipeline.dwellReport
    }

    static let recordings: [(path: String, catalog: String?)] = {
        let captures = (try? FileManager.default.contentsOfDirectory(atPath: SharedData.directory.appendingPathComponent("captures").path)) ?? []
        let demo = SharedData.repositoryRoot.appendingPathComponent("demo")
        return captures.sorted().map { (SharedData.capture($0).path, nil) } + [
            (demo.appendingPathComponent("museum-walk.btsnoop").path, "demo/museum.yaml"),
            (demo.appendingPathComponent("museum-walk.btsnoop").path, nil),
            (demo.appendingPathComponent("tradeshow.btsnoop").path, "demo/tradeshow.yaml"),
        ]
    }()

    @Test("every real capture's and demo recording's report prints the regex's bytes")
    func realRecordings() throws {
        #expect(Self.recordings.count >= 15)
        var rows = 0
        for recording in Self.recordings {
            let report = try Self.report(recording.path, catalog: recording.catalog)
            let text = DwellReportRenderer.text(report)
            #expect(text == Self.regexText(report), "\(recording.path)")
            rows += text.split(separator: "\n").count
        }
        // The demo recordings reach their exhibits: rows with names, padded columns to trim.
        #expect(rows > 40)
    }

    @Test("trailing blanks of any kind go as the regex's \\s did; inner ones stay")
    func hostileCells() {
        let blanks = [" ", "\t", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{2003}", "\r\n", "\u{200B}", "e\u{301}", " \u{301}"]
        for blank in blanks {
            for last in ["", "x", blank, "x" + blank + blank, blank + "x"] {
                let header = ["a", "name", "n"], rows = [["id" + blank, "wide name " + blank, last], [blank, "", ""], ["", blank, blank]]
                #expect(DwellReportRenderer.alignedLines(header: header, rows: rows, firstNumeric: 2)
                    == Self.regexAlignedLines(header: header, rows: rows, firstNumeric: 2), "\(Array(blank.unicodeScalars))")
                #expect(DwellReportRenderer.alignedLines(header: header, rows: rows, firstNumeric: 1)
                    == Self.regexAlignedLines(header: header, rows: rows, firstNumeric: 1), "\(Array(blank.unicodeScalars))")
            }
        }
    }
}
