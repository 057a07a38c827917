import NDJSON
import PrintableText

/// Renders a `DwellReport` as text, CSV or JSON: pure functions of the table, so `beacontop report`
/// and the tests print exactly the same thing.
public enum DwellReportRenderer {
    /// An aligned plain-text table; durations as `m:ss`.
    public static func text(_ report: DwellReport) -> String {
        // Without a catalog every name is the id: print it once.
        let named = report.rows.contains { $0.name != $0.id }
        var header = ["exhibit", "name", "visits", "total", "mean", "longest"]
        var rows = report.rows.map { row in
            // Catalog names are anyone's text: escapes print visibly, never raw (docs/robustness.md).
            [PrintableText.line(row.id), PrintableText.line(row.name), String(row.visits),
             duration(row.total), duration(row.mean), duration(row.longest)]
        }
        if !named {
            header.remove(at: 1)
            rows = rows.map { row in var copy = row; copy.remove(at: 1); return copy }
        }
        var lines: [String] = []
        if let title = report.title { lines.append(PrintableText.line(title)) }
        lines += alignedLines(header: header, rows: rows, firstNumeric: named ? 2 : 1)
        if rows.isEmpty { lines.append("(no exhibit was nearest)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A text table's lines: columns padded to their widest cell, text left-aligned and columns
    /// from `firstNumeric` on right-aligned, two spaces apart, no trailing blanks.
    public static func alignedLines(header: [String], rows: [[String]], firstNumeric: Int) -> [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func format(_ cells: [String]) -> String {
            let line = cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column >= firstNumeric ? pad + cell : cell + pad
            }.joined(separator: "  ")
            // A plain trim: the regex this was (`\s+$`) was built on every call, the largest stage
            // of a capture fuzzer's input at 4 KiB (docs/fuzzing.md).
            return String(line[..<(line.lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? line.startIndex)])
        }
        return [format(header)] + rows.map(format)
    }

    /// RFC 4180 CSV with a header row; durations in seconds (one decimal).
    public static func csv(_ report: DwellReport) -> String {
        var lines = ["id,name,visits,total_s,mean_s,longest_s"]
        for row in report.rows {
            lines.append([
                PrintableText.csvField(row.id), PrintableText.csvField(row.name), String(row.visits),
                seconds(row.total), seconds(row.mean), seconds(row.longest),
            ].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `{"title": ..., "exhibits": [{"id", "name", "visits", "total", "mean", "longest"}]}`, seconds.
    public static func json(_ report: DwellReport) -> String {
        var w = JSONWriter()
        w.raw("{\"title\":")
        if let title = report.title { w.string(title) } else { w.null() }
        w.raw(",\"exhibits\":[")
        for (position, row) in report.rows.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"id\":")
            w.string(row.id)
            w.raw(",\"name\":")
            w.string(row.name)
            w.raw(",\"visits\":")
            w.integer(row.visits)
            w.raw(",\"total\":")
            w.number(row.total, decimals: 1)
            w.raw(",\"mean\":")
            w.number(row.mean, decimals: 1)
            w.raw(",\"longest\":")
            w.number(row.longest, decimals: 1)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("]}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return "-" }
        let whole = Int(seconds.rounded())
        let s = whole % 60
        return "\(whole / 60):\(s < 10 ? "0" : "")\(s)"
    }

    static func seconds(_ value: Double) -> String {
        var w = JSONWriter(capacity: 16)
        w.number(value, decimals: 1, keepPoint: true)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
