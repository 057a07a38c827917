import NDJSON
import PacketSources
import PrintableText
import Ranging
import Venue

/// `replay` and `report` on a venue recording: every recorded message through one `VenueScan`
/// on this thread, as fast as it decodes, at its recorded receive time (the same view a live
/// `scan mqtt://` ran, so the same presence and visits), publishing nothing.
public enum VenueReplay {
    /// A step back in a recording's receive times of more than this is the host clock set back
    /// (a recording made before `LiveClock`, or joined from two) and taken as a step of zero, as
    /// `CaptureClock` takes a capture's: the view never ticks behind a line it wrote, so the
    /// messages after a step back of N s were received with no line and no visit decided for N s
    /// (`replay` lost half a 90 s recording set back 100 s). Smaller steps back are messages
    /// delivered out of order, up to the 0.5 s an agent's reading may come late, taken as they are.
    public static let stepBackTolerance = 1.0

    /// Runs the recording; `emit` gets the NDJSON venue lines as they fill the writer. `stopped` is
    /// asked after each: when it says so (a write failed: `replay --json | head -1`), reading stops
    /// there, with a line on stderr saying how many messages were read, instead of reading the
    /// rest of the recording with nowhere to put its lines. `warn` takes those stderr lines (the
    /// fuzz harness keeps them off its log).
    public static func run(
        path: String, catalog: ExhibitCatalog?, stopped: () -> Bool = { false }, warn: (String) -> Void = { StandardError.report($0) },
        emit: (inout JSONWriter) -> Void
    ) throws(VenueRecordingError) -> VenueScan {
        var reader = try VenueRecordingReader(path: path)
        var scan = VenueScan(view: VenueView(catalog: catalog, topics: VenueTopics(prefix: reader.prefix)), clock: nil, publish: { _ in })
        var lines = JSONWriter(capacity: 1 << 16)
        var clock = CaptureClock(tolerance: stepBackTolerance)
        var failure: VenueRecordingError?
        var read = 0
        do {
            while var message = try reader.next() {
                read += 1
                message.receivedAt = clock.time(message.receivedAt)
                scan.receive(message, lines: &lines)
                if lines.bytes.count >= 1 << 15 {
                    emit(&lines)
                    if stopped() {
                        warn("\(path): \(read) messages read: no more output could be written")
                        return scan
                    }
                }
            }
        } catch {
            failure = error
        }
        scan.finish(lines: &lines)
        emit(&lines)
        if let failure { warn("\(failure); replayed up to there") }
        return scan
    }

    /// Per room: visits, total, mean and longest dwell (s), visits per hour of the session (`-` when
    /// it spans less than an hour).
    public static func text(_ report: VenueReport) -> String {
        let header = ["room", "name", "visits", "total_s", "mean_s", "longest_s", "visits/h"]
        let rows = report.rows.map { row in
            [PrintableText.line(row.room), PrintableText.line(row.name), String(row.visits), seconds(row.totalDwell),
             seconds(row.meanDwell), seconds(row.longest), report.footTrafficPerHour(row).map(seconds) ?? "-"]
        }
        var lines: [String] = []
        if let title = report.title { lines.append(PrintableText.line(title)) }
        lines += DwellReportRenderer.alignedLines(header: header, rows: rows, firstNumeric: 2)
        if rows.isEmpty { lines.append("(no visit)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 4180, a header row, seconds with one decimal; visits_per_hour empty under an hour.
    public static func csv(_ report: VenueReport) -> String {
        var lines = ["room,name,visits,total_s,mean_s,longest_s,visits_per_hour"]
        for row in report.rows {
            lines.append([
                PrintableText.csvField(row.room), PrintableText.csvField(row.name), String(row.visits), seconds(row.totalDwell),
                seconds(row.meanDwell), seconds(row.longest), report.footTrafficPerHour(row).map(seconds) ?? "",
            ].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        var w = JSONWriter(capacity: 32)
        w.number(value, decimals: 1)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
