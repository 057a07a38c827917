import Foundation
import TestFixtures
import Testing

/// Start-up failures of the monitor: a message a person can act on, exit status 1, and nothing
/// drawn (the terminal is never taken, or already restored).
@Suite
struct StartupErrorTests {
    /// Fails every test, with what to do, when beacontop is not built (never a silent skip).
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: beacontopExecutable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test func plainBeacontopIsTheMonitorOnHci0() throws {
        // No subcommand: the monitor on hci0. Here that fails at the socket (no Bluetooth in this
        // kernel, no adapter or no permission) or, with an adapter, at the terminal (stdin is not one).
        let result = try Self.run([])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("beacontop: "))
        #expect(result.stderr.contains("modprobe") || result.stderr.contains("setcap") || result.stderr.contains("hci0") || result.stderr.contains("terminal"))
    }

    /// A first run on a laptop with no adapter (hci9: no such adapter, or no Bluetooth in the kernel
    /// at all) says what went wrong and points at the demo, which needs no hardware.
    @Test func noAdapterPointsAtTheDemo() throws {
        let result = try Self.run(["monitor", "hci9"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("modprobe") || result.stderr.contains("no Bluetooth adapter hci9"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("; with no adapter at hand, `beacontop demo` shows the monitor on a simulated museum tour\n"), "\(result.stderr)")
    }

    @Test func aSourceNobodyListensOnIsReportedBeforeTheTerminalIsTaken() throws {
        let result = try Self.run(["monitor", "tcp:127.0.0.1:1"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("tcp:127.0.0.1:1"))
        #expect(result.stderr.contains("refused"))
    }

    @Test func withoutATerminalTheMonitorSaysWhatToUseInstead() throws {
        let result = try Self.run(["monitor", SharedData.capture("govee-h5100.btsnoop").path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cannot start the terminal UI"))
        #expect(result.stderr.contains("beacontop scan SOURCE --json"))
    }

    /// Without a terminal nothing is written: `--record FILE` held the replay's first packets and
    /// the survey its file and capture, so the retry in a terminal was refused (`already holds 561
    /// bytes`; `already holds a survey: add --resume`).
    @Test func withoutATerminalNothingIsRecordedOrSaved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-terminal-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("first.btsnoop").path
        let monitor = try Self.run(["monitor", SharedData.capture("govee-h5100.btsnoop").path, "--record", recording])
        #expect(monitor.status == 1)
        #expect(monitor.stderr.contains("cannot start the terminal UI"), "\(monitor.stderr)")
        #expect(!FileManager.default.fileExists(atPath: recording))
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let out = directory.appendingPathComponent("survey").path
        let survey = try Self.run(["survey", SharedData.capture("govee-h5100.btsnoop").path, "--catalog", catalog, "--out", out])
        #expect(survey.status == 1)
        #expect(survey.stderr.contains("cannot start the terminal UI"), "\(survey.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).isEmpty, "the survey left files")
    }

    @Test func badOptionsNameTheOption() throws {
        let filter = try Self.run(["monitor", "x.btsnoop", "--filter", "median"])
        #expect(filter.status != 0)
        #expect(filter.stderr.contains("--filter: unknown filter \"median\""), "\(filter.stderr)")
        let catalog = try Self.run(["monitor", "sim:/nonexistent/venue.yaml"])
        #expect(catalog.status == 1)
        #expect(catalog.stderr.contains("/nonexistent/venue.yaml"))
    }

    /// Foundation's words were "The operation could not be completed. The file doesn't exist.",
    /// after `catalog PATH: catalog file: cannot read PATH:`.
    @Test("a missing catalog is the system's one line, status 1, from every command that reads one")
    func missingCatalogInTheSystemsWords() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let missing = "/nonexistent/museum.yaml"
        for arguments in [["scan", walk, "--json", "--exhibits", missing], ["replay", walk, "--json", "--exhibits", missing],
                          ["scan", "sim:" + missing, "--json"], ["monitor", walk, "--exhibits", missing]] {
            let result = try Self.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.status)")
            #expect(result.stderr == "beacontop: \(missing): No such file or directory\n", "\(arguments): \(result.stderr)")
        }
        // simulate said it as argument-parser's `Error: ...`.
        let simulate = try Self.run(["simulate", "--catalog", missing, "--out", "/nonexistent/walk.btsnoop"])
        #expect(simulate.status == 1)
        #expect(simulate.stderr == "beacontop: \(missing): No such file or directory\n", "\(simulate.stderr)")
    }

    /// An exhibit placed 1400 km from the rest (a catalog takes positions up to 1000 km from the
    /// origin) made the default run, one tour at a visitor's pace, weeks long: simulate wrote for
    /// hours. Past the day --duration allows, the tour is refused, and nothing is written.
    @Test func simulateRefusesATourLongerThanADay() throws {
        let (directory, far) = try Self.farCatalog("simulate-far")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("walk.btsnoop").path
        let run = try HostileInputCommandTests.run(["simulate", "--catalog", far, "--out", out], timeout: 20)
        #expect(run.status == 64, "\(run.status) \(run.stderr)")
        #expect(run.stderr.hasPrefix("beacontop: \(far): one tour lasts "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix(" s, past the 86400 s simulate writes (positions are metres: is an exhibit far from the rest?); give --duration\n"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The museum with one exhibit placed 1400 km from the rest, in a directory of its own.
    static func farCatalog(_ name: String) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let museum = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml"), encoding: .utf8)
        let far = directory.appendingPathComponent("far.yaml").path
        try museum.replacingOccurrences(of: "position: [1.0, 2.0]", with: "position: [999999, -999999]")
            .write(toFile: far, atomically: true, encoding: .utf8)
        return (directory, far)
    }

    /// The same tour as a `sim:` source was taken: the walk spent hours on its way to the far
    /// exhibit with no packet. Refused in simulate's words where nothing bounds the run (scan
    /// without --duration, the monitor, the demo, a survey), status 64; scan --duration runs.
    @Test func aSimWalkRefusesATourLongerThanADay() throws {
        let (directory, far) = try Self.farCatalog("sim-far")
        defer { try? FileManager.default.removeItem(at: directory) }
        let words = " s, past the 86400 s a sim: walk takes (positions are metres: is an exhibit far from the rest?)\n"
        for (arguments, suffix) in [
            (["scan", "sim:" + far, "--json"], " s, past the 86400 s a sim: walk takes without --duration (positions are metres: is an exhibit far from the rest?); give --duration\n"),
            (["monitor", "sim:" + far], words), (["demo", "--exhibits", far], words),
            (["survey", "sim:" + far, "--out", directory.appendingPathComponent("survey").path], words),
        ] {
            let run = try HostileInputCommandTests.run(arguments, timeout: 20)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("beacontop: sim:\(far): one tour lasts "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasSuffix(suffix), "\(arguments): \(run.stderr)")
        }
        // The refused survey left its new, empty --out behind; one that existed before stays.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("survey").path))
        let existing = directory.appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        let refused = try HostileInputCommandTests.run(["survey", "sim:" + far, "--out", existing.path], timeout: 20)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: existing.path))
        let bounded = try HostileInputCommandTests.run(["scan", "sim:" + far, "--json", "--speed", "100", "--duration", "1"], timeout: 20)
        #expect(bounded.status == 0, "\(bounded.stderr)")
    }

    /// --truth-step was only required to be positive: 1e-300 s never finished (each sample is kept
    /// in memory until the run ends), 0.001 s over the museum tour wrote 141 MB of truth. A step
    /// that would make more than 200,000 samples is refused, and nothing is written.
    @Test func simulateRefusesATruthStepWithoutEnd() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-step-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("walk.btsnoop").path
        for arguments in [["--truth-step", "1e-300"], ["--truth-step", "0.001", "--duration", "86400"]] {
            let run = try HostileInputCommandTests.run(["simulate"] + arguments + ["--out", out], timeout: 20)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("beacontop: --truth-step "), "\(run.stderr)")
            #expect(run.stderr.hasSuffix(" truth samples, the most simulate writes; give a larger --truth-step or a shorter --duration\n"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// `simulate --catalog` with a line that does not parse said `Error: catalog line 2, ...`,
    /// without the file's name; it says it as demo and the monitor do, and so for a catalog that
    /// parses but cannot be walked (an exhibit with no position).
    @Test func simulateNamesTheCatalogItCannotUse() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-catalog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknownKey = directory.appendingPathComponent("unknown-key.yaml").path
        try "exhibits: []\ncolour: blue\n".write(toFile: unknownKey, atomically: true, encoding: .utf8)
        let noPosition = directory.appendingPathComponent("no-position.yaml").path
        try "exhibits:\n  - id: \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1\"\n".write(toFile: noPosition, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("walk.btsnoop").path
        for (catalog, said) in [(unknownKey, "beacontop: catalog \(unknownKey): catalog line 2, colour: unknown key"),
                                (noPosition, "beacontop: \(noPosition): exhibits[0].position: missing")] {
            let result = try Self.run(["simulate", "--catalog", catalog, "--out", out])
            #expect(result.status == 1, "\(catalog): \(result.status)")
            #expect(result.stderr.hasPrefix(said) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// Plain `beacontop WORD` is the monitor on a source WORD, so a misspelt command was only a
    /// file that cannot be opened; the line now ends with the command meant.
    @Test func aMisspeltCommandIsNamed() throws {
        for (typed, meant) in [("dmeo", "demo"), ("moniter", "monitor"), ("survy", "survey")] {
            let result = try Self.run([typed])
            #expect(result.status == 1)
            #expect(result.stderr == "beacontop: \(typed): cannot open: No such file or directory; did you mean `beacontop \(meant)`?\n", "\(result.stderr)")
        }
        // A capture's name, or a word near no command, gets no guess.
        for typed in ["demo.btsnoop", "zebra"] {
            let result = try Self.run([typed])
            #expect(result.status == 1)
            #expect(result.stderr == "beacontop: \(typed): cannot open: No such file or directory\n", "\(result.stderr)")
        }
    }

    /// `beacontop help NAME` for a NAME that is no command printed the top-level help, status 0:
    /// it says so, with the command meant when one is near, status 64 as any usage error.
    @Test func helpForANameThatIsNoCommand() throws {
        for (typed, said) in [(["help", "nosuch"], "help: no command `nosuch`; `beacontop help` lists the commands"),
                              (["help", "moniter"], "help: no command `moniter`; did you mean `beacontop help monitor`?"),
                              (["help", "monitor", "extra"], "help: `monitor` has no command `extra`; `beacontop help monitor` lists its flags")] {
            let result = try Self.run(typed)
            #expect(result.status == 64, "\(typed): \(result.status)")
            #expect(result.stdout.isEmpty, "\(typed): \(result.stdout)")
            #expect(result.stderr == "beacontop: \(said)\n", "\(typed): \(result.stderr)")
        }
        // A command's help, and the list, as before.
        for typed in [["help"], ["help", "survey"], ["help", "-h"]] {
            let result = try Self.run(typed)
            #expect(result.status == 0 && result.stdout.hasPrefix("OVERVIEW: "), "\(typed): \(result.status) \(result.stderr)")
        }
    }

    /// `simulate --out` into a directory that does not exist said argument-parser's `Error: ...`.
    @Test func simulateCannotWriteIsOneLine() throws {
        let out = "/nonexistent/beacontop-simulate/walk.btsnoop"
        let result = try Self.run(["simulate", "--duration", "5", "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr == "beacontop: \(out): cannot write: No such file or directory\n", "\(result.stderr)")
    }

    /// `advertise` on a kernel without Bluetooth offered "or a capture file", which cannot
    /// advertise; it names the H4 controllers alone. (With Bluetooth but no hci9 the line names the
    /// adapters instead, and offers no capture file either.)
    @Test func advertiseOffersNoCaptureFileInstead() throws {
        let result = try Self.run(["advertise", "hci9", "--ibeacon", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", "--duration", "1"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("capture file"), "\(result.stderr)")
        if result.stderr.contains("modprobe") {
            #expect(result.stderr.hasSuffix("or use a controller over H4 (serial:, tcp:, unix:)\n"), "\(result.stderr)")
        }
    }

    /// A scan interval or window out of range is a usage error for the monitor as for scan (status
    /// 64, before anything opens): it was found after the source opened (status 1, no usage line),
    /// and on a capture not at all.
    @Test func aScanTimingOutOfRangeIsAUsageError() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        for (arguments, said) in [(["monitor", walk, "--interval", "2"], "scan interval: 2.0 ms is outside 2.5 ms to 10240 ms"),
                                  (["monitor", "hci9", "--window", "200"], "scan window: 200.0 ms is longer than the interval 100.0 ms")] {
            let result = try Self.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: \(said)\n"), "\(arguments): \(result.stderr)")
        }
    }
}
