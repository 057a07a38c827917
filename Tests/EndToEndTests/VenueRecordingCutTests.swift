import Foundation
import TestFixtures
import Testing

/// A venue recording whose last line is cut (a recorder killed mid-write: `head -c` of a real
/// one) replays and reports every whole line before it, and says in words why it stopped there;
/// the cut line was left out without a word.
@Suite struct VenueRecordingCutTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test func aRecordingCutInItsLastLineKeepsEveryWholeLineAndSaysSo() throws {
        let fixture = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson")
        let bytes = try Data(contentsOf: fixture)
        // Half way through the file, inside a line (before the fixture's own bad line 1464).
        let cutAt = bytes.count / 2
        let lineEnd = try #require(bytes[..<cutAt].lastIndex(of: 0x0A))
        try #require(lineEnd < cutAt - 1, "the cut falls inside a line")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("venue-cut-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = directory.appendingPathComponent("cut.venue.ndjson").path
        let whole = directory.appendingPathComponent("whole.venue.ndjson").path
        _ = try ExternalCommand.run("/bin/sh", ["-c", "head -c \(cutAt) \"$0\" > \"$1\"", fixture.path, cut])
        try bytes[..<(lineEnd + 1)].write(to: URL(fileURLWithPath: whole))
        let lastLine = bytes[...lineEnd].count(where: { $0 == 0x0A }) + 1

        for arguments in [["replay", "--json"], ["report"]] {
            let fromCut = try ExternalCommand.run(beacontopExecutable, [arguments[0], cut] + arguments.dropFirst())
            let fromWhole = try ExternalCommand.run(beacontopExecutable, [arguments[0], whole] + arguments.dropFirst())
            #expect(fromCut.status == 0 && fromWhole.status == 0, "\(fromCut.stderr)")
            #expect(!fromCut.stdout.isEmpty && fromCut.stdout == fromWhole.stdout, "\(arguments): every whole line is kept")
            #expect(fromCut.stderr.contains("\(cut): line \(lastLine) (the last) is cut short: the recording was stopped mid-write; replayed up to there"), "\(fromCut.stderr)")
            #expect(!fromWhole.stderr.contains("cut short") && !fromCut.stderr.contains("payload"), "\(fromWhole.stderr)")
        }
    }

    /// A last line that is whole but lacks its newline (a hand edit, a tool that does not end
    /// files with one) was reported as cut short and left out. A JSON object cut mid-write cannot
    /// parse whole, so one that does is replayed, without a warning.
    @Test func aWholeLastLineWithoutItsNewlineIsReplayedWithoutAWarning() throws {
        let fixture = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson")
        let bytes = try Data(contentsOf: fixture)
        // Half way through the file (before the fixture's own bad line 1464), at a line's end.
        let lineEnd = try #require(bytes[..<(bytes.count / 2)].lastIndex(of: 0x0A))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("venue-unterminated-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unterminated = directory.appendingPathComponent("unterminated.venue.ndjson").path
        let whole = directory.appendingPathComponent("whole.venue.ndjson").path
        try bytes[..<lineEnd].write(to: URL(fileURLWithPath: unterminated))
        try bytes[...lineEnd].write(to: URL(fileURLWithPath: whole))

        for arguments in [["replay", "--json"], ["report"]] {
            let fromUnterminated = try ExternalCommand.run(beacontopExecutable, [arguments[0], unterminated] + arguments.dropFirst())
            let fromWhole = try ExternalCommand.run(beacontopExecutable, [arguments[0], whole] + arguments.dropFirst())
            #expect(fromUnterminated.status == 0 && fromWhole.status == 0, "\(fromUnterminated.stderr)")
            #expect(!fromUnterminated.stdout.isEmpty && fromUnterminated.stdout == fromWhole.stdout, "\(arguments): the last line is replayed")
            #expect(fromUnterminated.stderr.replacingOccurrences(of: unterminated, with: whole) == fromWhole.stderr, "\(fromUnterminated.stderr)")
            #expect(!fromUnterminated.stderr.contains("cut short"), "\(fromUnterminated.stderr)")
        }
    }
}
