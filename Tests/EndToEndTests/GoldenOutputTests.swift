import Foundation
import TestFixtures
import Testing

/// The headless commands' output on every real capture and on the demo recordings is exactly what was
/// committed under `Tests/Golden/`: standard output byte for byte, standard error and exit status.
/// A change of structure must leave all of it alone; a change of behaviour regenerates it on purpose
/// (`BEACONTOP_GOLDEN=update`, see `Tests/Golden/README.md`) and the diff shows what moved.
@Suite struct GoldenOutputTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test(arguments: GoldenCase.all)
    func outputIsAsCommitted(_ golden: GoldenCase) throws {
        let actual = try golden.run()
        if ProcessInfo.processInfo.environment["BEACONTOP_GOLDEN"] == "update" {
            try golden.store(actual)
            return
        }
        let expected = try golden.load()
        #expect(actual.result == expected.result, "\(golden): exit status or standard error differ")
        if let difference = GoldenCase.firstDifference(expected: expected.stdout, actual: actual.stdout) {
            Issue.record("\(golden): standard output differs \(difference)")
        }
    }

    /// Every capture in the shared data has expected outputs: a new capture is not silently left out.
    @Test func everyInputHasCommittedOutputs() throws {
        let inputs = Set(GoldenCase.all.map(\.inputName))
        let stored = try FileManager.default.contentsOfDirectory(atPath: GoldenCase.directory.path)
            .filter { !$0.hasSuffix(".md") }
        #expect(inputs == Set(stored), "regenerate with BEACONTOP_GOLDEN=update (Tests/Golden/README.md)")
    }
}

/// One command on one input, and where its expected output lives.
struct GoldenCase: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    static let directory = SharedData.repositoryRoot.appendingPathComponent("Tests/Golden")
    /// Larger expected outputs are stored gzip-compressed (NDJSON shrinks about twentyfold).
    static let plainLimit = 64 * 1024

    /// The input's path as given on the command line, relative to `workingDirectory`, so paths in
    /// messages are the same on every machine.
    let input: String
    let workingDirectory: URL
    let arguments: [String]
    /// The file name stem under the input's directory (`replay-json`).
    let name: String

    var inputName: String { URL(fileURLWithPath: input).lastPathComponent }
    var description: String { "beacontop \(arguments.joined(separator: " "))" }
    var testDescription: String { description }
    private var base: URL { Self.directory.appendingPathComponent(inputName).appendingPathComponent(name) }

    static let all: [GoldenCase] = {
        var cases: [GoldenCase] = []
        let shared = SharedData.directory
        let captures = (try? FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent("captures").path)) ?? []
        for capture in captures.sorted() {
            cases += commands(input: "captures/\(capture)", in: shared, catalog: nil)
        }
        let root = SharedData.repositoryRoot
        cases += commands(input: "demo/museum-walk.btsnoop", in: root, catalog: "demo/museum.yaml")
        cases += commands(input: "demo/tradeshow.btsnoop", in: root, catalog: "demo/tradeshow.yaml")
        // Venue recordings (`scripts/venue-fixture.py`: every message form, hostile ones, a bad and a
        // torn line): the view's output is held byte for byte while its parsing is made faster.
        for recording in ["mixed.venue.ndjson", "prefixed.venue.ndjson"] {
            let input = "Tests/VenueRecordings/\(recording)"
            cases += [
                ("replay-json", ["replay", input, "--json"]), ("report", ["report", input]),
                ("report-csv", ["report", input, "--csv"]), ("report-json", ["report", input, "--json"]),
            ].map { GoldenCase(input: input, workingDirectory: root, arguments: $0.1, name: $0.0) }
        }
        return cases
    }()

    /// The five commands of issue 10's check; with a catalog, the ranging ones again with it.
    static func commands(input: String, in directory: URL, catalog: String?) -> [GoldenCase] {
        var list: [(String, [String])] = [
            ("decode", ["decode", input]),
            ("decode-frames-json", ["decode", input, "--frames", "--json"]),
            ("scan-json", ["scan", input, "--json"]),
            ("replay-json", ["replay", input, "--json"]),
            ("report-csv", ["report", input, "--csv"]),
        ]
        if let catalog {
            list += [
                ("scan-json-exhibits", ["scan", input, "--json", "--exhibits", catalog]),
                ("replay-json-exhibits", ["replay", input, "--json", "--exhibits", catalog]),
                ("report-csv-exhibits", ["report", input, "--csv", "--exhibits", catalog]),
            ]
        }
        return list.map { GoldenCase(input: input, workingDirectory: directory, arguments: $0.1, name: $0.0) }
    }

    struct Output: Equatable {
        var stdout: Data
        /// `exit status: N`, then standard error.
        var result: String
    }

    /// Runs the built executable with standard output and error in temporary files (a pipe would
    /// need draining on both while a replay writes megabytes).
    func run() throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-golden-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: beacontopExecutable)
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        process.standardInput = FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let stderr = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        return Output(stdout: try Data(contentsOf: out), result: "exit status: \(process.terminationStatus)\n\(stderr)")
    }

    func load() throws -> Output {
        let manager = FileManager.default
        let result = base.appendingPathExtension("result")
        guard manager.fileExists(atPath: result.path) else {
            throw GoldenError(description: "\(self): no expected output at \(result.path); regenerate with BEACONTOP_GOLDEN=update")
        }
        let plain = base.appendingPathExtension("stdout")
        let stdout = manager.fileExists(atPath: plain.path)
            ? try Data(contentsOf: plain)
            : try Self.gzip(["-dc", base.appendingPathExtension("stdout.gz").path])
        return Output(stdout: stdout, result: try String(contentsOf: result, encoding: .utf8))
    }

    /// Writes the expected files: plain text when small, `gzip -n` (no name or time, so the same
    /// output always gives the same bytes) when large.
    func store(_ output: Output) throws {
        let folder = base.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plain = base.appendingPathExtension("stdout")
        let packed = base.appendingPathExtension("stdout.gz")
        try? FileManager.default.removeItem(at: plain)
        try? FileManager.default.removeItem(at: packed)
        try output.stdout.write(to: plain)
        if output.stdout.count > Self.plainLimit {
            _ = try Self.gzip(["-n", "-9", plain.path])
        }
        try Data(output.result.utf8).write(to: base.appendingPathExtension("result"))
    }

    static func gzip(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GoldenError(description: "gzip \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    /// Where two outputs part: the first differing line with both versions, or nil when equal.
    static func firstDifference(expected: Data, actual: Data) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let new = actual.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        func show(_ lines: [Data]) -> String {
            guard line < lines.count else { return "(no line)" }
            return String(decoding: lines[line].prefix(400), as: UTF8.self)
        }
        return "at line \(line + 1) (\(old.count) lines expected, \(new.count) written):\n  expected: \(show(old))\n  actual:   \(show(new))"
    }
}

struct GoldenError: Error, CustomStringConvertible {
    let description: String
}
