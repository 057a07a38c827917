import ArgumentParser
import Foundation
import HCI
import Monitor
import PacketSources
import Ranging
import Sessions
import Survey
import TerminalUI

/// `beacontop survey SOURCE --catalog venue.yaml --out survey/` (the floor plan, a cursor, samples
/// saved as NDJSON beside the raw capture; `--resume` continues one) and `beacontop survey --report
/// survey/` (the SVG maps and the CSV). Parsing and wiring only: the state is `SurveyState`, the
/// loop `SurveyLoop`, the files `SurveyLog` and `SurveyReport`.
struct SurveyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "survey",
        abstract: "Survey a venue's coverage on its floor plan: take samples where you stand, then draw the maps.",
        discussion: """
            Move the cursor with the arrow keys (or a mouse click) to where you stand and press Enter: \
            every beacon's readings for --sample seconds are saved to DIR/survey.ndjson at once, the raw \
            packets to DIR/capture-N.btsnoop. h (or ?) shows what every mark on the plan and every key \
            means. --report DIR writes overview.svg, one beacon-X.svg per \
            beacon and samples.csv into DIR (docs/survey.md). Exit status: 0 after q or a signal, or \
            the report written; 1 the source, catalog or survey file cannot be opened or read, a \
            controller refused, or a file cannot be written; 64 a usage error: a value out of range, no \
            SOURCE or --out, a broker as SOURCE, --out naming a file, a new survey without --catalog, an \
            existing survey without --resume or --resume where there is none.
            """
    )

    @Argument(help: "The source spec (as for monitor, but not a broker); not with --report.") var source: String?
    @Option(help: "The venue catalog (YAML) with positions and walls; required for a new survey (on sim:CATALOG, CATALOG by default).") var catalog: String?
    @Option(help: "The survey directory: survey.ndjson and the raw captures go there.") var out: String?
    @Flag(help: "Continue the survey already in --out (without it an existing survey is refused).") var resume = false
    @Option(help: "Write the maps (SVG) and samples.csv of the survey in this directory, then exit.") var report: String?
    @Option(help: "Seconds each sample lasts (0.5 to 600).") var sample: Double = SurveyState.defaultSampleSeconds
    @Option(help: "Replay speed: 0.25 to 100.") var speed: String = "1"
    @Flag(help: "Active scanning (send scan requests).") var active = false

    static let surveyFile = "survey.ndjson"

    func validate() throws {
        if report != nil {
            guard source == nil, out == nil, !resume else { throw ValidationError("--report DIR takes no SOURCE, --out or --resume") }
            return
        }
        guard let source else { throw ValidationError("a SOURCE is needed (a live adapter, a capture), or --report DIR") }
        guard out != nil else { throw ValidationError("--out DIR is needed: the survey is saved there") }
        guard sample.isFinite, sample >= 0.5, sample <= 600 else { throw ValidationError("--sample must be 0.5 to 600 seconds") }
        do {
            // A sample lasts seconds of capture time, which a replay at max never gives between packets.
            if case .max = try ReplaySpeed(parsing: speed) { throw ValidationError("--speed max: a survey replays at 0.25 to 100") }
        } catch let error as SourceSpecError { throw ValidationError(error.description) }
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        // A survey samples the beacon frames one radio hears where the technician stands; a venue's
        // broker relays other scanners' readings, not frames heard here.
        if case .broker = spec { throw ValidationError("a survey samples a radio or a capture, not a broker (mqtt://)") }
    }

    func run() async throws {
        if let report { return writeReport(directory: report) }
        guard let source, let out else { return }
        let directory = URL(fileURLWithPath: out)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw MonitorRunner.usageError("--out \(out) is a file, not a directory: name the survey's directory (created if missing)")
        }
        let surveyPath = directory.appendingPathComponent(Self.surveyFile).path
        let exists = FileManager.default.fileExists(atPath: surveyPath)
        // A simulated venue's catalog is the plan it walks: `survey sim:venue.yaml` needs no --catalog,
        // as the monitor on sim: needs no --exhibits.
        var catalogPath = catalog
        if catalogPath == nil, case .simulation(let path)? = try? SourceSpec(parsing: source) { catalogPath = path }
        let catalogFile = catalogPath.map { path -> ExhibitCatalog in
            do { return try SourceOpening.catalog(path) } catch { MonitorRunner.fail("\(error)") }
        }
        let session: SurveySession
        var createsDirectory = false
        let openFile: @Sendable () throws -> LineFileAppender
        do {
            if resume {
                guard exists else { throw MonitorRunner.usageError("--resume: \(surveyPath) does not exist; start a survey with --catalog") }
                session = try SurveyLog.load(path: surveyPath)
                let file = try LineFileAppender(path: surveyPath, mode: .append)
                openFile = { file }
            } else {
                if exists { throw MonitorRunner.usageError("\(out) already holds a survey: add --resume to continue it, or choose another --out") }
                guard let catalogFile else { throw MonitorRunner.usageError("--catalog is needed for a new survey: its positions and walls are the plan") }
                createsDirectory = !FileManager.default.fileExists(atPath: out)
                session = SurveySession(plan: SurveyPlan(catalog: catalogFile), created: Date().timeIntervalSince1970, catalogPath: catalogPath)
                // Created once the source runs and scans (on the loop thread): a controller that refused
                // to scan at start-up left a survey of no samples, which the next try refused without --resume.
                let header = SurveyLog.headerLine(session)
                openFile = { try LineFileAppender.starting(path: surveyPath, mode: .create, header: header) }
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            MonitorRunner.fail("\(error)")
        }
        // Measured powers and exponents for the samples: the catalog given, else the one the survey names.
        let samplingCatalog = catalogFile ?? session.catalogPath.flatMap { try? SourceOpening.catalog($0) }
        let state = SurveyState(session: session, catalog: samplingCatalog, sampleSeconds: sample)

        let replaySpeed = (try? ReplaySpeed(parsing: speed)) ?? .factor(1)
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { MonitorRunner.fail(error.description) }
        let opening: SourceOpening
        do { opening = try SourceOpening(spec: spec, replay: ReplayOptions(speed: replaySpeed)) } catch { MonitorRunner.fail("\(error)") }
        if let problem = opening.tourProblem(durationFlag: false) { throw MonitorRunner.usageError(problem) }
        var scanning: ScanOptions?
        if opening.controller != nil {
            var resetFirst = true
            if case .kernel(_, .raw) = spec { resetFirst = false }
            scanning = ScanOptions(type: active ? .active : .passive, timing: LEScanTiming.continuous, resetFirst: resetFirst)
        }
        var clockRate = 1.0
        if opening.replayControl != nil, case .factor(let factor) = replaySpeed { clockRate = factor }
        let rate = clockRate
        // Created once the source is known to open and walk: a refused start (a source that cannot be
        // opened, a sim: tour longer than a day) left a new, empty --out behind.
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            MonitorRunner.fail("cannot create the survey directory \(out): \(error.localizedDescription)")
        }
        // A start that fails in `drive` (no controller, no terminal) removes the directory this run
        // created if nothing went in; one that existed before is never removed.
        let created = createsDirectory
        let startFailed = {
            guard created, (try? FileManager.default.contentsOfDirectory(atPath: out))?.isEmpty == true else { return }
            try? FileManager.default.removeItem(atPath: out)
        }
        let capture = Self.freeCaptureName(in: directory)
        let inbox = MonitorRunner.inbox()
        let exit = ExitBox()
        // The survey records its own capture: `--record` (which it has not) named in the failure
        // sent a technician with a full disk looking for a flag.
        let recordFailure = { (_: String, error: any Error) in "cannot save the survey's packets: \(error)" }
        await MonitorRunner.drive(opening: opening, record: capture, scanning: scanning, inbox: inbox, recordFailure: recordFailure, startFailed: startFailed) {
            var loop = SurveyLoop(
                state: state, inbox: inbox, file: try openFile(), rate: rate, noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"]
            )
            defer { exit.samples = loop.state.session.samples.count }
            return try loop.run()
        }
        StandardError.report("\(exit.samples) sample\(exit.samples == 1 ? "" : "s") in \(surveyPath), packets in \(capture); `beacontop survey --report \(out)` draws the maps")
    }

    /// `capture-1.btsnoop`, or the next number free (a resumed survey keeps every session's packets).
    static func freeCaptureName(in directory: URL) -> String {
        var number = 1
        while FileManager.default.fileExists(atPath: directory.appendingPathComponent("capture-\(number).btsnoop").path) { number += 1 }
        return directory.appendingPathComponent("capture-\(number).btsnoop").path
    }

    func writeReport(directory: String) {
        let surveyPath = URL(fileURLWithPath: directory).appendingPathComponent(Self.surveyFile).path
        let session: SurveySession
        do { session = try SurveyLog.load(path: surveyPath) } catch { MonitorRunner.fail("\(error)") }
        var output = StandardOutput()
        SurveyReport.forEachFile(session) { file in
            let path = URL(fileURLWithPath: directory).appendingPathComponent(file.name).path
            do { try WholeFileWriter.write(file.contents, to: path) } catch { MonitorRunner.fail("\(error)") }
            output.write(path + "\n")
        }
        output.flush()
        if let problem = output.problem { MonitorRunner.fail(problem) }
    }
}

/// The loop thread's last word for the closing line.
private final class ExitBox: @unchecked Sendable {
    var samples = 0
}
