import Foundation
import TestFixtures
import Testing

/// `--record`, `--export` and `simulate --out` naming the run's own input: refused before anything opens, the
/// input unchanged (it was truncated to a 16-byte header, or a CSV header, and replayed nothing).
@Suite struct InputOverwriteTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("scan, monitor and simulate refuse --record, --export or --out onto their capture or catalog, by any path; the file is left whole")
    func ownInputIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("input-overwrite-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("walk.btsnoop").path
        let catalog = directory.appendingPathComponent("museum.yaml").path
        let link = directory.appendingPathComponent("link.btsnoop").path
        try FileManager.default.copyItem(atPath: SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path, toPath: capture)
        try FileManager.default.copyItem(atPath: SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path, toPath: catalog)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: capture)
        // A catalog named as `simulate --out tour.btsnoop` names its ground truth.
        let truthNamed = directory.appendingPathComponent("tour.truth.ndjson").path
        try FileManager.default.copyItem(atPath: catalog, toPath: truthNamed)
        let captureBytes = try Data(contentsOf: URL(fileURLWithPath: capture))
        let catalogBytes = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let cases: [([String], String)] = [
            (["scan", capture, "--json", "--record", capture], "--record"),
            (["scan", capture, "--json", "--record", link], "--record"),
            (["scan", capture, "--json", "--exhibits", catalog, "--record", catalog], "--record"),
            (["scan", "sim:" + catalog, "--json", "--speed", "100", "--record", catalog], "--record"),
            (["monitor", capture, "--record", link], "--record"),
            (["monitor", capture, "--export", capture], "--export"),
            (["monitor", capture, "--exhibits", catalog, "--export", catalog], "--export"),
            (["simulate", "--catalog", catalog, "--duration", "5", "--out", catalog], "--out"),
            (["simulate", "--catalog", truthNamed, "--duration", "5", "--out", directory.appendingPathComponent("tour.btsnoop").path], "--out's ground truth"),
        ]
        for (arguments, flag) in cases {
            let run = try HostileInputCommandTests.run(arguments, timeout: 30)
            // A usage error, as a --record onto any file holding bytes (it said 1).
            #expect(run.status == 64 && !run.timedOut, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("beacontop: \(flag) ") && run.stderr.contains("writing it would destroy it"), "\(arguments): \(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: capture)) == captureBytes, "\(arguments) changed the capture")
            #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == catalogBytes, "\(arguments) changed the catalog")
            #expect(try Data(contentsOf: URL(fileURLWithPath: truthNamed)) == catalogBytes, "\(arguments) changed the catalog named as a ground truth")
        }
        // Another file is still written.
        let other = directory.appendingPathComponent("copy.btsnoop").path
        let recorded = try HostileInputCommandTests.run(["scan", capture, "--json", "--record", other], timeout: 60)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)).count > 1_000_000)
    }
}

/// `--record FILE` (or `simulate --out FILE`) naming an existing file that holds bytes (an earlier recording, a second session
/// given the same name): refused with one line and the status of a usage error before anything
/// opens, the file's bytes unchanged (it was truncated: O_TRUNC).
@Suite struct RecordingOverwriteTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("monitor, scan and a venue scan refuse --record, simulate --out, onto an existing recording; its bytes are unchanged")
    func existingRecordingIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-overwrite-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let earlier = directory.appendingPathComponent("earlier.btsnoop").path
        try FileManager.default.copyItem(atPath: SharedData.capture("govee-h5100.btsnoop").path, toPath: earlier)
        let venueEarlier = directory.appendingPathComponent("earlier.venue.ndjson").path
        try FileManager.default.copyItem(atPath: SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path, toPath: venueEarlier)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: earlier))
        let venueBytes = try Data(contentsOf: URL(fileURLWithPath: venueEarlier))
        // simulate --out, and its ground truth beside a new capture name: it replaced both.
        let truthEarlier = directory.appendingPathComponent("new.truth.ndjson").path
        try FileManager.default.copyItem(atPath: earlier, toPath: truthEarlier)
        let cases: [([String], String, String)] = [
            (["scan", capture, "--json", "--record", earlier], "--record", earlier),
            (["monitor", capture, "--record", earlier], "--record", earlier),
            (["scan", "mqtt://127.0.0.1:1", "--json", "--record", venueEarlier], "--record", venueEarlier),
            (["monitor", "mqtt://127.0.0.1:1", "--record", venueEarlier], "--record", venueEarlier),
            (["simulate", "--duration", "5", "--out", earlier], "--out", earlier),
            (["simulate", "--duration", "5", "--out", directory.appendingPathComponent("new.btsnoop").path], "--out's ground truth", truthEarlier),
        ]
        for (arguments, flag, path) in cases {
            let run = try HostileInputCommandTests.run(arguments, timeout: 30)
            #expect(run.status == 64 && !run.timedOut, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr == "beacontop: \(flag) \(path) already holds \(path == venueEarlier ? venueBytes.count : bytes.count) bytes: a recording never writes over a file; choose another name\n",
                    "\(arguments): \(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: earlier)) == bytes, "a --record changed the earlier recording")
        #expect(try Data(contentsOf: URL(fileURLWithPath: venueEarlier)) == venueBytes, "a --record changed the earlier venue recording")
        #expect(try Data(contentsOf: URL(fileURLWithPath: truthEarlier)) == bytes, "simulate replaced a ground truth file")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.btsnoop").path), "simulate wrote a capture before refusing")
        // An existing empty file (mktemp's) is still recorded to.
        let empty = directory.appendingPathComponent("empty.btsnoop").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let recorded = try HostileInputCommandTests.run(["scan", capture, "--json", "--record", empty], timeout: 60)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).count > 1_000_000)
    }
}
