import Foundation
import TestFixtures
import Testing

/// A recording given as something other than a plain capture file: a FIFO (it hung every command
/// before a word was said), a directory, a device, and a capture compressed the way captures are
/// kept and mailed (it was `not a btsnoop, pcap or pcapng file (first bytes 1f8b...)`).
@Suite struct RecordingFileKindTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-kind-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every command that reads a recording, on `path`.
    static func commands(_ path: String) -> [[String]] {
        [["replay", path, "--json"], ["report", path], ["decode", path], ["scan", path, "--json"], ["monitor", path]]
    }

    @Test("a FIFO with no writer: one line saying to save it to a file, status 1, no hang")
    func fifoIsRefused() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("live.btsnoop").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for arguments in Self.commands(fifo) {
            let run = try HostileInputCommandTests.run(arguments, timeout: 20)
            #expect(!run.timedOut && run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr == "beacontop: \(fifo): cannot open: a pipe (FIFO), not a file: a recording is read more than "
                + "once (its format, its length, again to seek back); save it to a file first\n", "\(arguments)")
        }
    }

    @Test("a directory and a device are named as such")
    func directoryAndDevice() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, said) in [(directory.path, "a directory, not a capture file"), ("/dev/null", "a device, not a file")] {
            for arguments in Self.commands(path) {
                let run = try HostileInputCommandTests.run(arguments, timeout: 20)
                #expect(run.status == 1 && run.stderr.hasPrefix("beacontop: \(path): cannot open: \(said)"), "\(arguments): \(run.stderr)")
            }
        }
    }

    @Test("a gzip-compressed capture says so and how to decompress it")
    func gzipIsNamed() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("h5100.btsnoop").path
        try FileManager.default.copyItem(atPath: SharedData.capture("govee-h5100.btsnoop").path, toPath: copy)
        let gzip = try ExternalCommand.run(try ExternalCommand.find("gzip"), [copy])
        try #require(gzip.status == 0, "\(gzip.stderr)")
        for arguments in Self.commands(copy + ".gz") {
            let run = try HostileInputCommandTests.run(arguments, timeout: 20)
            #expect(run.status == 1, "\(arguments): \(run.status)")
            #expect(run.stderr == "beacontop: \(copy).gz: unsupported: a gzip-compressed file: decompress it first (gunzip -k \(copy).gz)\n",
                    "\(arguments): \(run.stderr)")
        }
    }
}
