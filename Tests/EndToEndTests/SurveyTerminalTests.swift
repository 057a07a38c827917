import Foundation
import Glibc
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestFixtures
import Testing

/// `beacontop survey` in a real terminal (tmux) on a replayed capture of real frames: the cursor
/// moves, samples are taken and saved as they end, the plan redraws with them, the survey resumes,
/// and `survey --report` writes maps that parse as XML and draw with librsvg.
@Suite(.serialized)
struct SurveyTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// The health scenario's three identities placed in a 6 x 4 m room with a partition.
    static let plan = """
        title: Survey hall
        exhibits:
          - id: "\(HealthScenario.uidID)"
            name: Eddystone bench beacon
            position: [1, 1]
          - id: "\(HealthScenario.duplicateID)"
            name: Cloned thermometer
            position: [5, 3]
          - id: "\(HealthScenario.rotatingID)"
            name: Rotating phone
        walls:
          - [[0, 0], [6, 0], [6, 4], [0, 4], [0, 0]]
          - [[3, 0], [3, 2]]
        """

    static func lines(_ screen: String) -> [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The cursor's cell: the one `+` inside the plan (lines 1 to the legend).
    static func cursor(_ screen: String) -> (x: Int, y: Int)? {
        let lines = lines(screen)
        for (y, line) in lines.enumerated() where y >= 1 && y < lines.count - 4 {
            if let index = Array(line).firstIndex(of: "+") { return (index, y) }
        }
        return nil
    }

    /// The survey file's lines as JSON objects: every line one, none blank (an NDJSON reader taking
    /// a line at a time fails on a blank line), ending with a newline.
    static func surveyLines(_ directory: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: directory.appendingPathComponent("s/survey.ndjson"), encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the last line is whole")
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "a line of \(text)")
        }
    }

    @Test func samplesAreTakenSavedResumedAndDrawn() throws {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plan.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        let arguments = "survey health.btsnoop --catalog plan.yaml --out s --sample 2 --speed 2"
        let session = try MonitorTerminalTests.start(arguments, in: directory.path, columns: 100, lines: 30)
        defer { session.kill() }
        let first = try session.waitFor(timeout: 15, "the plan") { $0.contains("beacontop survey · Survey hall") && $0.contains("cursor x 1.0 m, y 1.0 m") }
        #expect(first.contains("0 samples"))
        #expect(first.contains("A") && first.contains("B"), "the placed beacons by letter")
        #expect(first.contains("┌") && first.contains("┴"), "the walls, joined")
        // The cursor starts on beacon A (drawn over its letter); half a metre right it is a `+`.
        try session.send("Right")
        let stepped = try session.waitFor(timeout: 10, "the cursor moved") { $0.contains("cursor x 1.5 m, y 1.0 m") }
        let start = try #require(Self.cursor(stepped), "\(stepped)")
        // h shows what every mark and key means in the plan's place; Esc goes back to the plan as it was.
        try session.send("h")
        let help = try session.waitFor(timeout: 10, "the marks and keys") { $0.contains("Marks and keys (h or Esc returns)") && $0.contains("quit: every sample") }
        #expect(help.contains("no beacon reaches -80 dBm") && !help.contains("┌"), "\(help)")
        try session.send("Escape")
        let back = try session.waitFor(timeout: 10, "the plan again") { $0.contains("┌") && !$0.contains("Marks and keys") }
        #expect(Self.cursor(back).map { [$0.x, $0.y] } == [start.x, start.y] && back.contains("cursor x 1.5 m, y 1.0 m"), "\(back)")

        // Further right: the cursor moves right on the screen, the info line says where.
        for _ in 0..<2 { try session.send("Right") }
        let moved = try session.waitFor(timeout: 10, "the cursor moved") { $0.contains("cursor x 2.5 m, y 1.0 m") }
        let there = try #require(Self.cursor(moved))
        #expect(there.x > start.x && there.y == start.y, "\(start) -> \(there)")

        try SurveySampleStart.start(1, in: session)
        try session.waitFor(timeout: 15, "the first sample") { $0.contains("sample 1 saved") }
        for _ in 0..<2 { try session.send("Up") }
        try session.send("Enter")
        let second = try session.waitFor(timeout: 15, "the second sample") { $0.contains("sample 2 saved") && $0.contains("2 samples") }
        // Both spots are drawn, shaded by their strongest beacon (the cursor keeps the mark beneath it).
        let shades: Set<Character> = ["█", "▓", "▒", "?", "×"]
        let marks = Self.lines(second).dropFirst().prefix(24).flatMap { Array($0) }.filter(shades.contains)
        #expect(marks.count == 2, "two sample spots: \(second)")
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)

        var saved = try Self.surveyLines(directory)
        #expect(saved.count == 3, "the header and two samples")
        #expect(saved[0]["type"] as? String == "survey")
        #expect(saved[1]["x"] as? Double == 2.5 && saved[1]["y"] as? Double == 1)
        #expect(saved[2]["x"] as? Double == 2.5 && saved[2]["y"] as? Double == 2)
        let readings = try #require(saved[1]["readings"] as? [[String: Any]])
        #expect(!readings.isEmpty, "the beacons heard during the sample")
        let span = (saved[1]["end"] as! Double) - (saved[1]["start"] as! Double)
        #expect(abs(span - 2) < 0.001)

        // Without --resume an existing survey is refused; with it, the survey goes on from sample 3.
        let refused = try ExternalCommand.run(beacontopExecutable, arguments.split(separator: " ").map(String.init).map {
            $0.hasSuffix(".btsnoop") || $0.hasSuffix(".yaml") || $0 == "s" ? directory.appendingPathComponent($0).path : $0
        })
        // A usage error, as --record onto a file holding bytes: status 64.
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already holds a survey: add --resume"))
        let resumed = try MonitorTerminalTests.start("survey health.btsnoop --out s --resume --sample 2 --speed 2", in: directory.path, columns: 100, lines: 30)
        defer { resumed.kill() }
        try resumed.waitFor(timeout: 15, "the resumed survey") { $0.contains("2 samples") && $0.contains("cursor x 2.5 m, y 2.0 m") }
        try resumed.send("Left", "Left")
        try resumed.waitFor(timeout: 10, "the cursor moved") { $0.contains("cursor x 1.5 m, y 2.0 m") }
        try SurveySampleStart.start(3, in: resumed)
        try resumed.waitFor(timeout: 15, "the third sample") { $0.contains("sample 3 saved") && $0.contains("3 samples") }
        try resumed.send("q")
        try MonitorTerminalTests.expectRestored(resumed)
        saved = try Self.surveyLines(directory)
        #expect(saved.compactMap { $0["index"] as? Int } == [1, 2, 3])
        for capture in ["capture-1.btsnoop", "capture-2.btsnoop"] {
            let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("s/\(capture)").path)[.size] as? Int
            #expect((size ?? 0) > 1000, "\(capture): the raw packets of each session")
        }

        // The report: maps that parse, one element per sample and per placed beacon, a legend; drawn to PNG.
        let report = try ExternalCommand.run(beacontopExecutable, ["survey", "--report", directory.appendingPathComponent("s").path])
        #expect(report.status == 0, "\(report.stderr)")
        let written = report.stdout.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }
        #expect(written.first == "overview.svg" && written.last == "samples.csv")
        #expect(written.contains("beacon-A.svg") && written.contains("beacon-B.svg"))
        let converter = try ExternalCommand.find("rsvg-convert")
        for name in written where name.hasSuffix(".svg") {
            let path = directory.appendingPathComponent("s/\(name)").path
            let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [])
            let samples = try document.nodes(forXPath: "//*[contains(concat(' ', @class, ' '), ' sample ')]")
            #expect(samples.count == 3, "\(name)")
            #expect(try document.nodes(forXPath: "//*[contains(concat(' ', @class, ' '), ' beacon ')]").count == 2, "\(name): A and B are placed")
            #expect(try document.nodes(forXPath: "//*[@id='legend']").count == 1, "\(name)")
            let png = path + ".png"
            let drawn = try ExternalCommand.run(converter, ["--format", "png", "--output", png, path])
            #expect(drawn.status == 0, "\(name): \(drawn.stderr)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
            #expect(bytes.prefix(4) == [0x89, 0x50, 0x4E, 0x47], "\(name) drew a PNG")
        }
        let csv = CSVTable.parse(try String(contentsOf: directory.appendingPathComponent("s/samples.csv"), encoding: .utf8))
        #expect(csv.first?.first == "sample")
        #expect(Set(csv.dropFirst().map { $0[0] }) == ["1", "2", "3"])
    }

    /// `survey sim:CATALOG` takes the simulated venue's catalog as its plan, as the monitor takes it
    /// for its exhibits: it asked for --catalog (status 64), though the walk follows that catalog.
    @Test func aSimulatedVenueIsSurveyedOnItsOwnCatalog() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("survey-sim-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let museum = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let session = try MonitorTerminalTests.start("survey sim:\(museum) --out s", in: directory.path, columns: 100, lines: 30)
        defer { session.kill() }
        try session.waitFor(timeout: 15, "the museum's plan") { $0.contains("beacontop survey · The Little Museum of Clever Things") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
        let header = try #require(try Self.surveyLines(directory).first)
        #expect(header["catalog"] as? String == museum)
    }

    /// A signal ends the survey through the same clean-up as q: the terminal restored, the sample
    /// under way not saved, the samples before it kept.
    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalRestoresTheTerminalAndKeepsTheSamples(signal: Int32) throws {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plan.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        let session = try MonitorTerminalTests.start("survey health.btsnoop --catalog plan.yaml --out s --sample 4 --speed 2", in: directory.path)
        defer { session.kill() }
        try session.waitFor(timeout: 15, "the plan") { $0.contains("beacontop survey") && $0.contains("cursor x 1.0 m") }
        try SurveySampleStart.start(1, in: session)
        try session.waitFor(timeout: 15, "the first sample") { $0.contains("sample 1 saved") }
        try session.send("Right", "Enter")
        try session.waitFor(timeout: 10, "a sample under way, counting the beacons heard") { $0.contains("sampling") && $0.contains("beacons heard") }
        let survey = try #require(try session.childProcessIDs().first)
        #expect(Glibc.kill(survey, signal) == 0)
        try MonitorTerminalTests.expectRestored(session)
        #expect(try session.capture(history: true).contains("beacontop: 1 sample in "), "one sample, not 1 samples")
        #expect(try session.format("#{mouse_any_flag}") == "0")
        let saved = try Self.surveyLines(directory)
        #expect(saved.count == 2, "the header and the one finished sample")
    }

    /// A sample that cannot be written (the file size limit here, a full disk in the field: both
    /// take what fits, then refuse the rest) is not saved, says so, and leaves no cut line: the
    /// survey still loads, resumes and reports, and the closing line counts what the file holds.
    @Test func aSampleThatCannotBeWrittenLeavesTheSurveyWhole() throws {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plan.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        // dash counts `ulimit -f` in 512-byte blocks: 3 KB takes the header and a few samples. SIGXFSZ
        // ignored, as a full disk raises none: the write fails with EFBIG instead.
        let session = try TmuxSession(
            command: "sh -c 'cd \(directory.path) && trap \"\" XFSZ && ulimit -f 6 && \(beacontopExecutable) survey health.btsnoop --catalog plan.yaml --out s --sample 0.5 --speed 1; echo EXIT=$?; exec sh'",
            columns: 120, lines: 30, environment: MonitorTerminalTests.environment
        )
        defer { session.kill() }
        try session.waitFor(timeout: 15, "the plan") { $0.contains("beacontop survey") }
        // Each sample waits for its own number, saved or not: an earlier sample's "saved" line must
        // not pass for this one's. The minute of capture at --speed 1 outlasts the dozen samples
        // even on a loaded machine (after the replay's end no sample starts).
        var screen = ""
        for sample in 1...12 {
            if sample == 1 {
                // The first Enter can come before the first packet (see SurveySampleStart).
                try session.send("Right")
                try session.waitFor(timeout: 10, "the cursor moved") { $0.contains("cursor x 1.5 m") }
                try SurveySampleStart.start(1, in: session)
            } else {
                try session.send("Right", "Enter")
            }
            screen = try session.waitFor(timeout: 15, "sample \(sample) saved or refused") {
                $0.contains("sample \(sample) saved:") || $0.contains("not saved: sample \(sample),")
                    || $0.contains("nothing more to sample")
            }
            if !screen.contains("sample \(sample) saved:") { break }
        }
        #expect(screen.contains("not saved: sample "), "\(screen)")
        #expect(screen.contains("File too large; take it again"), "\(screen)")
        try session.send("q")
        let closing = try session.waitFor(timeout: 15, "the closing line") { $0.contains("EXIT=") }
        let saved = try Self.surveyLines(directory)
        let samples = saved.count - 1
        #expect(samples >= 1, "samples before the limit are kept")
        #expect(closing.contains("\(samples) sample\(samples == 1 ? "" : "s") in"), "the closing line counts the file's samples: \(closing)")
        let report = try ExternalCommand.run(beacontopExecutable, ["survey", "--report", directory.appendingPathComponent("s").path])
        #expect(report.status == 0, "the survey still loads: \(report.stderr)")
    }

    /// A survey directory that takes no byte (a full disk; the file size limit here) is said as the
    /// survey's own capture failing: it said `--record DIR/capture-1.btsnoop`, a flag the
    /// technician never gave.
    @Test func aDirectoryThatTakesNothingIsSaidInTheSurveysWords() throws {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plan.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            command: "sh -c 'cd \(directory.path) && trap \"\" XFSZ && ulimit -f 0 && \(beacontopExecutable) survey health.btsnoop --catalog plan.yaml --out s; echo EXIT=$?; exec sh'",
            columns: 200, lines: 30, environment: MonitorTerminalTests.environment
        )
        defer { session.kill() }
        let screen = try session.waitFor(timeout: 15, "the exit") { $0.contains("EXIT=") }
        #expect(screen.contains("EXIT=1"), "\(screen)")
        #expect(screen.contains("beacontop: cannot save the survey's packets: \(directory.path)/s/capture-1.btsnoop: cannot write: File too large"), "\(screen)")
        #expect(!screen.contains("--record"), "\(screen)")
    }

    /// After a replayed capture ends no sample starts: the clock would run on over silence and save
    /// the spot as one with no coverage.
    @Test func noSampleAfterTheReplayEnds() throws {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plan.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        let session = try MonitorTerminalTests.start("survey health.btsnoop --catalog plan.yaml --out s --sample 1 --speed 100", in: directory.path)
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the replay's end") { $0.contains("end of replay") }
        try session.send("Enter")
        try session.waitFor(timeout: 10, "the refusal") { $0.contains("the source has ended: nothing more to sample") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
        #expect(try Self.surveyLines(directory).count == 1, "the header only: no empty spot saved")
    }

    /// A report that cannot be written (a full disk; here a file size limit) names the file and the
    /// system's reason, not Foundation's "NSCocoaErrorDomain error 512".
    @Test func aReportThatCannotBeWrittenSaysWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-report-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = #"{"catalog":"hall.yaml","created":1700000000,"plan":{"beacons":[],"title":"Hall","walls":[]},"type":"survey","version":1}"#
        try (header + "\n").write(to: directory.appendingPathComponent("survey.ndjson"), atomically: true, encoding: .utf8)
        let report = try ExternalCommand.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" survey --report \"$1\"", beacontopExecutable, directory.path])
        #expect(report.status == 1)
        #expect(report.stderr.contains("cannot write \(directory.path)/overview.svg: File too large"), "\(report.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["survey.ndjson"], "no temporary or cut file is left")
    }

    /// Each refusal in one line with the status docs/commands.md gives: 64 for a usage error (a flag
    /// missing or not fitting the directory it names, as argument-parser's own), 1 for a file that
    /// cannot be read. A missing --catalog, --resume with no survey and --out naming a file were 1.
    @Test func startUpErrorsSayWhatToDo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-survey-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = SharedData.capture("govee-misc.btsnoop").path
        let noCatalog = try ExternalCommand.run(beacontopExecutable, ["survey", capture, "--out", directory.path])
        #expect(noCatalog.status == 64)
        #expect(noCatalog.stderr.contains("--catalog is needed for a new survey"))
        let noSurvey = try ExternalCommand.run(beacontopExecutable, ["survey", capture, "--out", directory.path, "--resume"])
        #expect(noSurvey.status == 64)
        #expect(noSurvey.stderr.contains("does not exist"))
        let noOut = try ExternalCommand.run(beacontopExecutable, ["survey", capture])
        #expect(noOut.status == 64)
        #expect(noOut.stderr.contains("--out DIR is needed"))
        let atMax = try ExternalCommand.run(beacontopExecutable, ["survey", capture, "--out", directory.path, "--speed", "max"])
        #expect(atMax.status == 64)
        #expect(atMax.stderr.contains("--speed max: a survey replays at 0.25 to 100"))
        // A broker relays other scanners' readings, not frames heard where the technician stands.
        let broker = try ExternalCommand.run(beacontopExecutable, ["survey", "mqtt://127.0.0.1:1", "--out", directory.path])
        #expect(broker.status == 64)
        #expect(broker.stderr.contains("a survey samples a radio or a capture, not a broker (mqtt://)"), "\(broker.stderr)")
        // --out naming a file (the catalog, by a slip) says so, not Foundation's error dump.
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        for extra in [["--catalog", catalog], ["--resume"]] {
            let onAFile = try ExternalCommand.run(beacontopExecutable, ["survey", capture, "--out", catalog] + extra)
            #expect(onAFile.status == 64)
            #expect(onAFile.stderr.contains("--out \(catalog) is a file, not a directory"), "\(onAFile.stderr)")
        }
        let noReport = try ExternalCommand.run(beacontopExecutable, ["survey", "--report", directory.path])
        // A survey that is not there is the system's words, as every other file (Foundation's
        // "The operation could not be completed. The file doesn't exist." before).
        #expect(noReport.status == 1)
        #expect(noReport.stderr == "beacontop: survey \(directory.path)/survey.ndjson: No such file or directory\n", "\(noReport.stderr)")
        // A damaged survey cannot be read, as a damaged catalog: status 1, the line named.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "{bad\n".write(to: directory.appendingPathComponent("survey.ndjson"), atomically: true, encoding: .utf8)
        for arguments in [["survey", "--report", directory.path], ["survey", capture, "--out", directory.path, "--resume"]] {
            let damaged = try ExternalCommand.run(beacontopExecutable, arguments)
            #expect(damaged.status == 1)
            #expect(damaged.stderr.contains("survey.ndjson line 1: not a JSON object"), "\(damaged.stderr)")
        }
    }
}
