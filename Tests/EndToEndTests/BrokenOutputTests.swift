import Foundation
import Glibc
import TestFixtures
import Testing

/// The headless commands' standard output going wrong under them, through the real executable and
/// a real shell: a full disk must be an error (they exited 0 with every line lost), a reader that
/// wanted only the first line no error (`replay --json | head -1` died of SIGPIPE, status 141).
@Suite struct BrokenOutputTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path

    /// `sh -c script` with the executable and the capture as $0 and $1.
    static func shell(_ script: String) throws -> ExternalCommand.Result {
        try ExternalCommand.run("/bin/sh", ["-c", script, beacontopExecutable, walk], limit: 120)
    }

    @Test("decode, replay, report and scan into /dev/full: status 1 and a message saying the output is incomplete")
    func fullDiskIsAnError() throws {
        for command in ["decode \"$1\"", "decode --frames --json \"$1\"", "replay --json \"$1\"", "report \"$1\"", "report --csv \"$1\"", "scan \"$1\" --json", "scan \"$1\" --frames"] {
            let run = try Self.shell("\"$0\" \(command) > /dev/full")
            #expect(run.status == 1, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("beacontop: standard output: write failed: No space left on device; the output is incomplete"),
                    "\(command): \(run.stderr)")
        }
    }

    @Test("replay, decode --frames and scan into head -1: status 0, no message about the output")
    func closedPipeIsNoError() throws {
        for command in ["replay --json \"$1\"", "decode --frames \"$1\"", "decode --frames --json \"$1\"", "scan \"$1\" --json"] {
            // `exit` with the first command's status: POSIX sh has no PIPESTATUS.
            let run = try Self.shell("{ \"$0\" \(command); echo $? > \"$TMPDIR_STATUS\"; } | head -1 > /dev/null; s=$(cat \"$TMPDIR_STATUS\"); rm -f \"$TMPDIR_STATUS\"; exit $s"
                .replacingOccurrences(of: "$TMPDIR_STATUS", with: Self.statusFile()))
            #expect(run.status == 0, "\(command): \(run.status) \(run.stderr)")
            #expect(!run.stderr.contains("standard output"), "\(command): \(run.stderr)")
        }
    }

    /// `scan ... >&-`: descriptor 1 was taken by the first file the process opened, and the scan
    /// said `write failed: Invalid argument`. A stdout closed at start is said as it is, status 1.
    @Test("scan with standard output closed says so, status 1")
    func closedStandardOutputIsSaid() throws {
        let run = try Self.shell("\"$0\" scan \"$1\" --json >&-")
        #expect(run.status == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr == "beacontop: standard output is closed\n", "\(run.stderr)")
    }

    static func statusFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("broken-output-\(getpid())-\(UUID().uuidString.prefix(8))").path
    }

    /// Runs `script` with the executable as $0 and `file` as $1.
    static func shell(_ script: String, file: String) throws -> ExternalCommand.Result {
        try ExternalCommand.run("/bin/sh", ["-c", script, beacontopExecutable, file], limit: 120)
    }

    /// The count in "N packets read, ... no more output could be written" (or "N messages read: ..."), nil
    /// when the replay did not say it stopped early.
    static func readBeforeClosing(_ stderr: String) -> Int? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.hasSuffix("no more output could be written") }),
              let match = line.firstMatch(of: /(\d+) (packets|messages) read/) else { return nil }
        return Int(match.1)
    }

    @Test("replay --json and decode --frames of a large capture into head -1, or a full disk, stop reading at the first failed write")
    func aClosedOutputStopsTheCaptureReplay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-output-big-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("big.btsnoop").path
        let made = try ExternalCommand.run(beacontopExecutable, ["simulate", "--duration", "3000", "--out", capture])
        let total = try #require(made.stdout.firstMatch(of: /(\d+) advertisements/).flatMap { Int($0.1) }, "\(made.stdout) \(made.stderr)")
        #expect(total > 200_000)
        let closed = try Self.shell("\"$0\" replay --json \"$1\" | head -1 > /dev/null", file: capture)
        #expect(closed.status == 0, "\(closed.stderr)")
        let read = try #require(Self.readBeforeClosing(closed.stderr), "\(closed.stderr)")
        // The reading thread runs at most a few batches of 4,096 ahead of the ticks written, and
        // those stop within a pipe's 64 KiB and the output's 64 KiB buffer of the reader leaving.
        #expect(read < total / 4, "read \(read) of \(total)")
        let full = try Self.shell("\"$0\" replay --json \"$1\" > /dev/full", file: capture)
        #expect(full.status == 1, "\(full.stderr)")
        #expect(full.stderr.contains("write failed: No space left on device"), "\(full.stderr)")
        #expect((Self.readBeforeClosing(full.stderr) ?? .max) < total / 4, "\(full.stderr)")
        // decode's frame list the same: it read the whole file after head left.
        for listing in ["decode --frames --json", "decode --frames"] {
            let decoded = try Self.shell("\"$0\" \(listing) \"$1\" | head -1 > /dev/null", file: capture)
            #expect(decoded.status == 0, "\(listing): \(decoded.stderr)")
            let line = decoded.stderr.split(separator: "\n").first { $0.hasSuffix("malformed packets: no more output could be written") }
            let records = try #require(line?.firstMatch(of: /^(\d+) records,/).flatMap { Int($0.1) }, "\(listing): \(decoded.stderr)")
            #expect(records < total / 4, "\(listing): read \(records) of \(total)")
        }
    }

    /// A paced replay writes each tick as it comes, as a radio does: its lines sat in the 64 KiB
    /// output buffer (the museum walk's first 17 s of capture, 34 s at half speed), so a script's
    /// `jq` saw nothing and `head -1` waited that long, or for ever across a silence.
    @Test("scan FILE --json --speed 0.5 into head -1: the first tick comes through and the scan stops at the next")
    func aPacedReplayReachesThePipeAsItTicks() throws {
        // `timeout` stops a scan that never lets its first line out (status 124), and the status
        // file carries the scan's status, as in closedPipeIsNoError.
        let status = Self.statusFile()
        let run = try Self.shell(
            "{ timeout 20 \"$0\" scan \"$1\" --json --speed 0.5; echo $? > \"\(status)\"; } | head -1; s=$(cat \"\(status)\"); rm -f \"\(status)\"; exit $s"
        )
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stdout)")
        let tick = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        // The walk starts at 1767258000.01: its first tick is at the next whole second.
        #expect(tick?["t"] as? Double == 1_767_258_001, "\(run.stdout)")
        #expect(run.stderr.contains(": stopped\n"), "\(run.stderr)")
    }

    /// A looping replay that writes nothing (a capture with no beacon, frames or text) never had a
    /// write fail, so it spun at 100% of a core for ever after its reader left. It asks the pipe
    /// at each pass's end.
    @Test("scan FILE --loop --speed max of a capture with no beacon, its reader gone: stops at the end of a pass, status 0", arguments: [["--frames"], []])
    func aSilentLoopNoticesItsReaderLeft(mode: [String]) throws {
        // `timeout` stops a loop that never notices (status 124); `true` reads nothing and leaves.
        let status = Self.statusFile()
        let run = try Self.shell(
            "{ timeout 20 \"$0\" scan \"$1\" --loop --speed max \(mode.joined(separator: " ")); echo $? > \"\(status)\"; } | true; s=$(cat \"\(status)\"); rm -f \"\(status)\"; exit $s",
            file: SharedData.capture("govee-no-beacons.pcapng").path
        )
        #expect(run.status == 0, "\(mode): \(run.status) \(run.stderr.suffix(300))")
        #expect(run.stderr.contains("looping (1)") && run.stderr.hasSuffix(": stopped\n"), "\(mode): \(run.stderr.suffix(300))")
    }

    /// A consumer that stopped reading and did not exit (hung, or a terminal paused with Ctrl-S)
    /// left `scan` blocked in write(2): SIGTERM, SIGINT and `--duration` stopped the radio, but
    /// the process waited for the consumer for ever. Here the consumer holds a FIFO open and never
    /// reads; the scan must end while it is still there.
    @Test("scan --json stopped (--duration, SIGTERM) while its reader stopped reading: ends, status 1, says the output is incomplete",
          arguments: ["--duration 2", "SIGTERM"])
    func aStoppedScanLeavesAReaderThatStoppedReading(stop: String) throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("stalled-reader-\(getpid())-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        // The museum walk at speed 100 writes a tick line of about 2 KB every 10 ms: the FIFO's
        // 64 KiB are full within half a second. `sleep 60` holds it open and reads nothing.
        let scan = "\"$0\" scan \"$1\" --json --speed 100 --loop"
        let stopping = stop == "SIGTERM"
            ? "\(scan) > \"$F\" & p=$!; sleep 2; kill -TERM $p; wait $p"
            : "\(scan) \(stop) > \"$F\""
        let run = try Self.shell(
            "F='\(fifo)'; mkfifo \"$F\"; sleep 60 < \"$F\" & r=$!; \(stopping); s=$?; if kill -0 $r 2>/dev/null; then echo reader-alive; fi; kill $r; exit $s"
        )
        #expect(run.stdout == "reader-alive\n", "\(stop): \(run.stdout) \(run.stderr)")
        #expect(run.status == 1, "\(stop): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("beacontop: standard output: its reader stopped reading;"), "\(stop): \(run.stderr)")
    }

    @Test("replay --json of a venue recording into head -1 stops reading it")
    func aClosedOutputStopsTheVenueReplay() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("broken-output-\(getpid())-\(UUID().uuidString.prefix(8)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // An ESPresense node hearing one beacon ten times a second for 10,000 s: a venue line a
        // second, so the 64 KiB of a pipe and of the output buffer hold under 1,000 s of it.
        let id = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"
        var text = #"{"beacontopVenueRecording":1,"prefix":""}"# + "\n"
        let total = 100_000
        for step in 0..<total {
            let payload = #"{\"id\":\"\#(id)\",\"rssi@1m\":-59,\"rssi\":\#(-60 - step % 7),\"distance\":1.5,\"int\":100}"#
            text += #"{"t":\#(1_795_411_724 + Double(step) / 10),"topic":"espresense/devices/\#(id)/kitchen","payload":"\#(payload)"}"# + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let whole = try Self.shell("\"$0\" replay --json \"$1\" | wc -l", file: path)
        #expect((Int(whole.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 1_000, "\(whole.stdout) \(whole.stderr)")
        let closed = try Self.shell("\"$0\" replay --json \"$1\" | head -1 > /dev/null", file: path)
        #expect(closed.status == 0, "\(closed.stderr)")
        let read = try #require(Self.readBeforeClosing(closed.stderr), "\(closed.stderr)")
        #expect(read < total / 4, "read \(read) of \(total)")
    }

    /// An export whose header cannot be written (a full disk; here a file size limit of 0) is an
    /// error that leaves no empty CSV behind.
    @Test func anExportThatCannotStartLeavesNoFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-export-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        // The limit only for beacontop, its messages through a pipe (no file limit there) and cat;
        // in a terminal (script's pty), as the monitor refuses to create its files without one.
        let script = "cd \"$1\" && (trap '' XFSZ; ulimit -f 0; TERM=xterm-256color script -qec \"'$0' monitor 'sim:$2' --export x.csv\" /dev/null < /dev/null; echo \"status $?\") 2>&1 | cat"
        let run = try ExternalCommand.run("/bin/sh", ["-c", script, beacontopExecutable, directory.path, catalog], limit: 60)
        #expect(run.stdout.hasSuffix("status 1\n"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("beacontop: --export x.csv: cannot write: File too large"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [], "no empty x.csv is left")
    }
}
