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

    static func statusFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("broken-output-\(getpid())-\(UUID().uuidString.prefix(8))").path
    }
}
