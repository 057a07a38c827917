import Foundation
import TestFixtures
import Testing

/// A run that fails at start-up (no controller, no terminal, a bad catalog) leaves no recording: it
/// left its `--record` file (a 16-byte header, or a replay's first 42 KB), and the same command, run
/// again once the cause was fixed, refused the name (`already holds 16 bytes`, status 64). Nor does
/// it touch the `--export` file named.
@Suite struct StartupRecordingTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("scan, monitor and survey failing at start-up leave no recording, and the same command fails the same way again")
    func failedStartLeavesNoRecording() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("startup-recording-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let museum = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        // No controller listens there on any machine: the connect fails after the recording opened.
        let noController = "unix:" + directory.appendingPathComponent("no-controller.sock").path
        let badCatalog = directory.appendingPathComponent("bad.yaml").path
        try "exhibits: []\ncolour: blue\n".write(toFile: badCatalog, atomically: true, encoding: .utf8)
        let record = directory.appendingPathComponent("session.btsnoop").path
        let cases: [[String]] = [
            ["scan", noController, "--record", record],
            // The replay had started: part of the walk was copied before the catalog was read.
            ["scan", walk, "--json", "--exhibits", badCatalog, "--record", record],
            ["monitor", noController, "--record", record],
            // Standard input is no terminal: the loop refuses after the replay started.
            ["monitor", walk, "--record", record],
        ]
        // A --from past the end replays nothing (a usage error, 64): it recorded nothing either.
        let pastTheEnd = ["scan", walk, "--from", "500", "--record", record]
        for attempt in 1...2 {
            let run = try HostileInputCommandTests.run(pastTheEnd, timeout: 30)
            #expect(run.status == 64 && run.stderr.contains("past the end"), "attempt \(attempt): \(run.status) \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: record), "attempt \(attempt) left \(record)")
        }
        for arguments in cases {
            for attempt in 1...2 {
                let run = try HostileInputCommandTests.run(arguments, timeout: 30)
                #expect(run.status == 1 && !run.timedOut, "\(arguments) attempt \(attempt): \(run.status) \(run.stderr)")
                #expect(!run.stderr.contains("already holds"), "\(arguments) attempt \(attempt): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: record), "\(arguments) attempt \(attempt) left \(record)")
            }
        }

        // An empty file it was given (mktemp's) stays, empty.
        let given = directory.appendingPathComponent("mktemp.btsnoop").path
        #expect(FileManager.default.createFile(atPath: given, contents: nil))
        let run = try HostileInputCommandTests.run(["scan", noController, "--record", given], timeout: 30)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: given)[.size] as? Int == 0)

        // --export FILE opens once the source runs: a failed start replaced it with a CSV header.
        let export = directory.appendingPathComponent("yesterday.csv").path
        try "time,id\r\n1,a\r\n".write(toFile: export, atomically: true, encoding: .utf8)
        let exported = try HostileInputCommandTests.run(["monitor", noController, "--export", export], timeout: 30)
        #expect(exported.status == 1, "\(exported.stderr)")
        #expect(try String(contentsOfFile: export, encoding: .utf8) == "time,id\r\n1,a\r\n")
        let fresh = directory.appendingPathComponent("new.csv").path
        let freshRun = try HostileInputCommandTests.run(["monitor", noController, "--export", fresh], timeout: 30)
        #expect(freshRun.status == 1 && freshRun.stderr == exported.stderr, "\(freshRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))

        // The survey's capture-N.btsnoop: capture-1, capture-2, ... piled up, one per failed attempt.
        let out = directory.appendingPathComponent("survey")
        for attempt in 1...2 {
            let survey = try HostileInputCommandTests.run(["survey", noController, "--catalog", museum, "--out", out.path], timeout: 30)
            #expect(survey.status == 1, "attempt \(attempt): \(survey.stderr)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(left.isEmpty, "\(left)")
        // Nor the new, empty --out itself.
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// Standard input that is no terminal is found before the loop creates its files: the monitor
    /// replaced an existing `--export` file with a CSV header, and a new survey left a
    /// survey.ndjson of its header alone, which the same command then refused without --resume.
    @Test("with no terminal the monitor and the survey write nothing, and the same command fails the same way again")
    func noTerminalWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-terminal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let museum = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let export = directory.appendingPathComponent("yesterday.csv").path
        try "time,id\r\n1,a\r\n".write(toFile: export, atomically: true, encoding: .utf8)
        let fresh = directory.appendingPathComponent("new.csv").path
        let out = directory.appendingPathComponent("survey")
        for arguments in [["monitor", walk, "--export", export], ["monitor", "sim:" + museum, "--export", fresh],
                          ["survey", walk, "--catalog", museum, "--out", out.path]] {
            for attempt in 1...2 {
                let run = try HostileInputCommandTests.run(arguments, timeout: 30)
                #expect(run.status == 1 && run.stderr.contains("cannot start the terminal UI"), "\(arguments) attempt \(attempt): \(run.status) \(run.stderr)")
            }
        }
        #expect(try String(contentsOfFile: export, encoding: .utf8) == "time,id\r\n1,a\r\n")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
