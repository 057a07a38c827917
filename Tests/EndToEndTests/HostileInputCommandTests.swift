import Foundation
import Glibc
import TestFixtures
import Testing

/// The crafted hostile files (Tests/HostileInputs) through the real executable: every headless
/// command ends on its own with a clear message, and no output carries a terminal control raw.
@Suite(.onComputationThread) struct HostileInputCommandTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    /// Runs beacontop; after `timeout` seconds sends `signal` (SIGTERM, then SIGKILL 5 s later).
    static func run(_ arguments: [String], timeout: Double = 60, signalAfter: Double? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: beacontopExecutable)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: a command that writes megabytes must not block on a full pipe.
        let out = directory.appendingPathComponent("out"), err = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(signalAfter ?? timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning && signalAfter == nil
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        let stillRunningAfterTerm = signalAfter != nil && process.terminationReason == .uncaughtSignal
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
                   timedOut: timedOut || stillRunningAfterTerm)
    }

    /// What a terminal acts on or lays out differently (a plain-text line's own LF excepted).
    static func harmful(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || scalar.properties.generalCategory == .format
                || v == 0x2028 || v == 0x2029
        }.map(\.value)
    }

    static func input(_ name: String) -> String { HostileInputs.path(name) }

    @Test("decode --json and --frames --json on huge pcapng and btsnoop times: no trap, the bad records counted")
    func decodeHugeTimes() throws {
        for name in ["pcapng-tsoffset-positive.pcapng", "pcapng-tsoffset-negative.pcapng", "pcapng-tsresol-seconds-max-ticks.pcapng"] {
            for extra in [["--json"], ["--frames", "--json"]] {
                let run = try Self.run(["decode", Self.input(name)] + extra)
                #expect(run.status == 0 && !run.timedOut, "\(name) \(extra): \(run.stderr)")
                #expect(run.stderr.contains("3 records, 2 HCI packets, 2 beacon frames, 1 malformed packets"), "\(run.stderr)")
            }
        }
        let btsnoop = try Self.run(["decode", Self.input("btsnoop-extreme-times.btsnoop"), "--frames", "--json"])
        #expect(btsnoop.status == 0)
        #expect(btsnoop.stdout.components(separatedBy: "\"t\":").dropFirst().map { String($0.prefix(17)) }
            == ["1700000000.000000", "1700000001.000000"], "\(btsnoop.stdout)")
        #expect(btsnoop.stderr.contains("3 malformed packets"))
    }

    @Test("replay, report and scan end on a capture whose time jumps past 2^53 s and 150 years on")
    func timeJumpEnds() throws {
        let file = Self.input("pcapng-time-jump.pcapng")
        for arguments in [["replay", file, "--json"], ["report", file], ["scan", file, "--json"], ["scan", file, "--json", "--tick", "0.001"]] {
            // `--tick 0.001` ranges every millisecond until the beacon expires (about 62,000 ticks,
            // 4 s of CPU in a debug build, 20 s before NDJSON and Ranging were built with -O): the
            // limit is for a hang, not a speed target, and a loaded CI machine must not trip it.
            let run = try Self.run(arguments, timeout: 300)
            #expect(!run.timedOut && run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("malformed"), "\(arguments): \(run.stderr)")
        }
        let ticks = try Self.run(["replay", file, "--json"]).stdout.split(separator: "\n")
        #expect(ticks.first?.hasPrefix("{\"t\":1700000001") == true && ticks.last?.hasPrefix("{\"t\":6430400001") == true, "\(ticks.count) ticks")
    }

    /// Ticks fall on multiples of --tick, which had no upper bound: `--tick 1e10` put the one tick
    /// past year 2255, where its time no longer fits six decimals, and replay wrote `{"t":null,...}`.
    @Test("replay, report and scan refuse a --tick longer than a day; a day still ticks at a time")
    func tickLongerThanADay() throws {
        let file = SharedData.capture("govee-inout.pcap").path
        for command in [["replay", file, "--json"], ["report", file], ["scan", file, "--json"]] {
            let run = try Self.run(command + ["--tick", "1e10"])
            #expect(run.status == 64, "\(command): \(run.status) \(run.stdout.prefix(200))")
            #expect(run.stderr.contains("--tick must be a number of seconds from 0.001 to 86400"), "\(command): \(run.stderr)")
        }
        let day = try Self.run(["replay", file, "--json", "--tick", "86400"])
        #expect(day.status == 0)
        #expect(!day.stdout.isEmpty && day.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"t\":1") }, "\(day.stdout)")
    }

    @Test("scan looping over a capture with a time jump stops on SIGTERM")
    func loopingScanStopsOnTerm() throws {
        let run = try Self.run(["scan", Self.input("pcapng-time-jump.pcapng"), "--json", "--loop"], signalAfter: 3)
        #expect(!run.timedOut, "still running 5 s after SIGTERM")
        #expect(run.stdout.contains("\"t\":1700000001"))
    }

    @Test("scan --json --frames on a script with t 1e300: the line is refused, the rest printed")
    func scriptHugeTime() throws {
        let run = try Self.run(["scan", Self.input("script-t-huge.ndjson"), "--json", "--frames"])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 2, "\(run.stdout)")
        #expect(run.stderr.contains("t 1e+300 is outside"), "\(run.stderr)")
    }

    @Test("report's text table and CSV show a hostile catalog's names with visible escapes")
    func reportNames() throws {
        let capture = SharedData.capture("horizon74.btsnoop").path
        let catalog = Self.input("catalog-escapes.yaml")
        let text = try Self.run(["report", capture, "--exhibits", catalog])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Clear \\u{1B}[2J"), "\(text.stdout)")
        #expect(Self.harmful(text.stdout).isEmpty && Self.harmful(text.stderr).isEmpty)
        let csv = try Self.run(["report", capture, "--exhibits", catalog, "--csv"])
        #expect(csv.stdout.components(separatedBy: "\r\n").count == 4, "header, two rows and the end:\n\(csv.stdout)")
        #expect(Self.harmful(csv.stdout.replacingOccurrences(of: "\r\n", with: "\n")).isEmpty)
    }

    @Test("script values, file names and catalog errors reach stderr with visible escapes")
    func stderrMessages() throws {
        let script = try Self.run(["scan", Self.input("script-escapes.ndjson"), "--json", "--frames"])
        #expect(script.stderr.contains("addressType '\\u{1B}]0;owned\\u{7}' is not public or random"), "\(script.stderr)")
        #expect(script.stderr.contains("\\u{9B}31m\\u{202E}evil\\u{200D}"), "\(script.stderr)")
        #expect(Self.harmful(script.stderr).isEmpty, "\(Self.harmful(script.stderr))")

        let name = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\u{1B}]0;owned\u{07}\u{202E}.btsnoop").path
        for command in [["replay", name, "--json"], ["decode", name], ["report", name], ["scan", name, "--json"]] {
            let run = try Self.run(command)
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr.contains("no-such-\\u{1B}]0;owned\\u{7}\\u{202E}.btsnoop"), "\(command): \(run.stderr)")
            #expect(Self.harmful(run.stderr).isEmpty, "\(command): \(Self.harmful(run.stderr))")
        }

        let catalog = try Self.run(["report", SharedData.capture("horizon74.btsnoop").path, "--exhibits", Self.input("catalog-not-utf8.yaml")])
        #expect(catalog.status == 1)
        #expect(catalog.stderr.contains("catalog line 3, file: byte 83 (0xE9) is not UTF-8"), "\(catalog.stderr)")
    }

    @Test("decode's text lines show an Eddystone URL's control bytes from the air as percent escapes")
    func airTextInDecodeLines() throws {
        let run = try Self.run(["decode", Self.input("btsnoop-eddystone-url-controls.btsnoop"), "--frames"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("https://x%1B[2J.com%9B.co"), "\(run.stdout)")
        #expect(Self.harmful(run.stdout).isEmpty)
        let summary = try Self.run(["decode", Self.input("btsnoop-eddystone-url-controls.btsnoop")])
        #expect(summary.stdout.contains("https://x%1B[2J.com%9B.co") && Self.harmful(summary.stdout).isEmpty, "\(summary.stdout)")
    }
}
