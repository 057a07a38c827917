import Foundation
import TestFixtures
import Testing

/// A real venue recording whose receive times step back 100 s halfway (the host clock set back
/// while it recorded), through `replay --json` and `report` (the built binary).
@Suite struct VenueClockJumpTests {
    static let recording = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path

    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// The recording with every message from its middle on moved `by` seconds (its hostile lines
    /// kept as they are: only a leading `{"t":NUMBER` is edited).
    static func write(by seconds: Double) throws -> String {
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let timed = lines.indices.filter { lines[$0].hasPrefix("{\"t\":") }
        let middle = timed[timed.count / 2]
        let edited = lines.indices.map { index -> String in
            let line = String(lines[index])
            guard index >= middle, line.hasPrefix("{\"t\":"), let end = line.firstIndex(of: ",") else { return line }
            let time = try! #require(Double(line[line.index(line.startIndex, offsetBy: 5)..<end]))
            return "{\"t\":\(time + seconds)" + line[end...]
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("venue-jump-\(UUID().uuidString).venue.ndjson").path
        try edited.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func times(_ stdout: String) throws -> [Double] {
        try stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["t"] as? Double)
        }
    }

    @Test("replay --json of a recording set back 100 s halfway: a line for every second, as before the edit")
    func replayRunsOn() throws {
        let path = try Self.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try HostileInputCommandTests.run(["replay", "--json", Self.recording])
        let jumped = try HostileInputCommandTests.run(["replay", "--json", path])
        #expect(original.status == 0 && jumped.status == 0, "\(jumped.stderr)")
        let originalTimes = try Self.times(original.stdout), jumpedTimes = try Self.times(jumped.stdout)
        for (before, after) in zip(jumpedTimes, jumpedTimes.dropFirst()) { #expect(after > before) }
        // Before, no line came until the receive times passed the step again: 45 lines of 90.
        // The last, at the last message, is earlier by the 0.06 s the step itself took.
        #expect(jumpedTimes.dropLast() == originalTimes.dropLast())
        let last = try #require(jumpedTimes.last), originalLast = try #require(originalTimes.last)
        #expect(abs(last - originalLast) < 0.1, "\(last) against \(originalLast)")
    }

    @Test("scan of a recording set back 100 s halfway (the paced replay engine): the lines replay writes")
    func scanRunsOn() throws {
        let path = try Self.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replayed = try HostileInputCommandTests.run(["replay", "--json", path])
        let scanned = try HostileInputCommandTests.run(["scan", path, "--speed", "max"])
        #expect(replayed.status == 0 && scanned.status == 0, "\(scanned.stderr)")
        // Before, the engine handed the times on unchanged: 45 lines of 90, as replay wrote.
        #expect(try Self.times(scanned.stdout) == Self.times(replayed.stdout))
    }

    @Test("report of a recording set back 100 s halfway: the same visits in every room")
    func reportKeepsVisits() throws {
        let path = try Self.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func visits(_ stdout: String) -> [String] {
            stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " ") }
        }
        let original = try HostileInputCommandTests.run(["report", Self.recording])
        let jumped = try HostileInputCommandTests.run(["report", path])
        #expect(original.status == 0 && jumped.status == 0, "\(jumped.stderr)")
        #expect(original.stdout.contains("visits"))
        // Room, name, visits (dwell differs by the tenths the step itself took).
        #expect(visits(jumped.stdout) == visits(original.stdout), "\(jumped.stdout)")
    }

    @Test("messages out of order by 0.9 s (under a second) are received at their own times")
    func lateMessagesUnchanged() throws {
        let path = try Self.write(by: -0.9)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let jumped = try HostileInputCommandTests.run(["replay", "--json", path])
        #expect(jumped.status == 0, "\(jumped.stderr)")
        let original = try Self.times(try HostileInputCommandTests.run(["replay", "--json", Self.recording]).stdout)
        let times = try Self.times(jumped.stdout)
        // Received at their own times: the last line, at the last message, is 0.9 s earlier (not
        // moved on by the step, as a clock set back would be).
        let last = try #require(times.last), originalLast = try #require(original.last)
        #expect(abs(last - (originalLast - 0.9)) < 1e-6, "\(last) against \(originalLast)")
    }
}
