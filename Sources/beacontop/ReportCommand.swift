import ArgumentParser
import Ranging
import Sessions

/// `beacontop report FILE`: per-exhibit visits and dwell time in a recording (docs/ranging.md
/// "Regions and dwell", docs/formats.md "Dwell report"), as a text table, CSV or JSON.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print visits and dwell time per exhibit for a capture file.",
        discussion: """
            Ranges the whole capture as `replay` does and counts, per exhibit, the visits (a visit lasts \
            while the exhibit is nearest) and the total, mean and longest dwell. With --exhibits, every \
            catalog exhibit is listed, visited or not, and only catalog beacons can be nearest. Exit status \
            as for replay: 0 done, 1 the file or catalog cannot be read, 2 reading stopped at a corrupt \
            header, 64 a usage error (--csv with --json).
            """
    )

    @Argument(help: "The capture file (btsnoop, pcap, pcapng), or a venue recording: visits per room.") var file: String
    @Flag(help: "CSV (RFC 4180, durations in seconds).") var csv = false
    @Flag(help: "JSON (durations in seconds).") var json = false
    @OptionGroup var ranging: RangingOptions

    func validate() throws {
        if csv && json { throw ValidationError("choose one of --csv and --json") }
    }

    func run() throws {
        if VenueRecording.looksLikeRecording(path: file) {
            // A venue recording: per room (booth) visits, total and mean dwell, foot traffic per hour.
            let scan: VenueScan
            do { scan = try VenueReplay.run(path: file, catalog: try ranging.catalog()) { $0.removeAll() } } catch {
                StandardError.report("\(error)")
                throw ExitCode(1)
            }
            let report = scan.view.report
            var output = StandardOutput()
            if csv {
                output.write(VenueReplay.csv(report))
            } else if json {
                output.write(report.json() + [0x0A])
            } else {
                output.write(VenueReplay.text(report))
            }
            try output.finish()
            if let refused = scan.refusedSummary { StandardError.report(refused) }
            return
        }
        var pipeline = try ranging.makePipeline()
        let outcome = CaptureReplay.run(path: file, pipeline: &pipeline) { _ in }
        if outcome.cannotRead == nil {
            let report = pipeline.dwellReport
            var output = StandardOutput()
            if csv {
                output.write(DwellReportRenderer.csv(report))
            } else if json {
                output.write(DwellReportRenderer.json(report))
            } else {
                output.write(DwellReportRenderer.text(report))
            }
            try output.finish()
        }
        outcome.reportFailure()
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}
