import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// A venue recording whose file cannot grow (a full disk in the field; the file size limit here:
/// both take what fits of a write, then refuse the rest) stops with a line saying so, as a btsnoop
/// recording does, and ends on its last whole line: `replay` and `report` read it without a word.
@Suite("Venue recordings: a full disk", .serialized)
struct VenueRecordingWriteFailureTests {
    typealias Command = VenueCommandTests.Command

    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    @Test("scan mqtt:// --record onto a full disk: the recording stops in words and ends on a whole line that replay and report read cleanly")
    func fullDisk() async throws {
        let broker = try LocalMosquittoBroker()
        let file = broker.directory.appendingPathComponent("venue.ndjson").path
        // dash counts `ulimit -f` in 512-byte blocks: 2 KB, about seven ESPresense lines of the
        // walk's 24. SIGXFSZ ignored, as a full disk raises none: the write fails with EFBIG instead.
        let live = try Command([
            "-c", "trap '' XFSZ; ulimit -f 4; exec \"$0\" scan \"$1\" --record \"$2\"",
            VenueCommandTests.executable, broker.url(), file,
        ], executable: "/bin/sh")
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        try await live.waitForOutput()
        try await VenueEventsCommandTests.walk(nodes, seconds: 3)
        try await live.waitForStderr("recording \(file): lost (\(file): cannot write: File too large; recording stopped)")
        live.process.interrupt()
        #expect(try await live.finish() == 0)
        nodes.stop()

        let recorded = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(recorded.count > 100 && recorded.count <= 4 * 512)
        #expect(recorded.last == 0x0A, "the line the disk took part of is cut off again")
        let replay = try Command(["replay", file, "--json"])
        #expect(try await replay.finish() == 0)
        #expect(!replay.stdout.isEmpty && !replay.stderr.contains("line"), "\(replay.stderr)")
        let report = try Command(["report", file])
        #expect(try await report.finish() == 0)
        #expect(report.stdout.contains("room") && !report.stderr.contains("line"), "\(report.stderr)")
    }
}
}
