import Foundation
import TestFixtures
import Testing

/// A replay's notices name the file once: a bad script line or a malformed capture record was
/// printed `beacontop: FILE: FILE:4: ...` (the notice's source, then the error's own path).
@Suite struct ReplayNoticeTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static func occurrences(of needle: String, in text: Substring) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("a bad advertisement script line names the file once, then the line")
    func scriptLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notice-\(getpid())-\(UUID().uuidString.prefix(8)).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = #"{"t": 1, "address": "C0:00:00:00:00:07", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}"#
        let lines = [good, good, good, #"{"t": 2, "address": "C0:00:00:00:00:07", "ibeacon": "E2C56DB5:1:2"}"#, good]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let run = try HostileInputCommandTests.run(["scan", path, "--json", "--speed", "max"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("line skipped") }, "\(run.stderr)")
        #expect(line == "beacontop: \(path): line 4: ibeacon 'E2C56DB5:1:2': UUID 'E2C56DB5' is not 32 hex digits; line skipped")
        #expect(Self.occurrences(of: path, in: line) == 1)
    }

    @Test("a malformed capture record names the file once")
    func captureRecord() throws {
        var bytes = try Array(Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        // The first record's H4 indicator (16-byte file header, 24-byte record header).
        bytes[40] = 0x09
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notice-\(getpid())-\(UUID().uuidString.prefix(8)).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try HostileInputCommandTests.run(["scan", path, "--json", "--speed", "max"])
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("malformed record") }, "\(run.stderr)")
        #expect(line == "beacontop: \(path): malformed record at byte 40: unknown H4 packet indicator 0x9")
        #expect(Self.occurrences(of: path, in: line) == 1)
    }
}
