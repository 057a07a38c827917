import Foundation
import TestFixtures
import Testing

/// `--from` and `--to` that are no point in a capture: refused as a usage error (status 64) by
/// scan and monitor alike. NaN passed every comparison and replayed the whole capture; `--to=-5`
/// replayed nothing with status 0.
@Suite struct ReplayWindowArgumentTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("NaN, infinite or negative --from/--to and a reversed window are refused, naming the flag", arguments: [
        (["--from=nan"], "--from must be a number of seconds, at least 0"),
        (["--from=-5"], "--from must be a number of seconds, at least 0"),
        (["--to=nan"], "--to must be a number of seconds, at least 0"),
        (["--to=-5"], "--to must be a number of seconds, at least 0"),
        (["--to=inf"], "--to must be a number of seconds, at least 0"),
        (["--from", "100", "--to", "10"], "--to must be after --from"),
    ])
    func refused(window: [String], message: String) throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        for command in [["scan", walk, "--json"], ["monitor", walk]] {
            let run = try HostileInputCommandTests.run(command + window, timeout: 30)
            #expect(run.status == 64, "\(command + window): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("Error: \(message)"), "\(command + window): \(run.stderr)")
        }
    }

    @Test("a window inside the capture still replays")
    func accepted() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let run = try HostileInputCommandTests.run(["scan", walk, "--json", "--from", "10", "--to", "20"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count >= 9, "\(run.stdout.prefix(300))")
    }
}
