import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// A venue recorded live (`scan mqtt://BROKER --record FILE`, the built binary, a real mosquitto)
/// and taken back through `replay`, `report` and `scan FILE`: the same view over the recorded
/// receive times, so the same rooms, visits and refusals, deterministically.
@Suite("Venue recordings: record live, replay, report", .serialized)
struct VenueRecordingCommandTests {
    typealias Command = VenueCommandTests.Command

    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    static func enters(_ lines: [[String: Any]]) -> [String] {
        lines.flatMap { $0["events"] as? [[String: Any]] ?? [] }.filter { $0["type"] as? String == "enter" }
            .map { "\($0["beacon"] ?? "?") \($0["room"] ?? "?")" }
    }

    @Test("Recorded live, replayed: the same enters and refusals; replay is deterministic; report counts the visits; a torn last line replays up to there")
    func recordReplayReport() async throws {
        let broker = try LocalMosquittoBroker()
        let file = broker.directory.appendingPathComponent("venue.ndjson").path
        let live = try Command(["scan", broker.url(), "--record", file])
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        try await live.waitForOutput()
        try await VenueEventsCommandTests.walk(nodes, seconds: 9) { step in
            if step == 3 {
                // Not UTF-8 (kept as payloadHex) and a hostile name: refused live and on replay alike.
                nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/x/kitchen", payload: [0xFF, 0xFE, 0x00, 0x1B]))
                nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/y/kitchen", payload: Array(#"{"id":"\u001b[2J","rssi":-50}"#.utf8)))
            }
        }
        // The walk's readings expired (the hall's exit is on a line), waited for, not 6 s.
        try await live.waitForLine("the exit from the hall", until: VenueEventsCommandTests.exitsHall)
        live.process.interrupt()
        #expect(try await live.finish() == 0)
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        #expect(recorded.hasPrefix("{\"beacontopVenueRecording\":1,\"prefix\":\"\"}\n"))
        #expect(recorded.contains("\"payloadHex\":\"fffe001b\""))
        #expect(!recorded.utf8.contains(0x1B))

        let replay = try Command(["replay", file, "--json"])
        #expect(try await replay.finish() == 0)
        let again = try Command(["replay", file, "--json"])
        #expect(try await again.finish() == 0)
        #expect(replay.stdout == again.stdout && !replay.stdout.isEmpty)
        let liveEnters = Self.enters(live.lines)
        #expect(liveEnters.contains { $0.hasSuffix(" kitchen") } && liveEnters.contains { $0.hasSuffix(" hall") }, "\(live.stdout)")
        #expect(Self.enters(replay.lines) == liveEnters)
        let refused = { (command: Command) in command.stderr.split(separator: "\n").first { $0.contains("refused") }.map(String.init) }
        #expect(refused(replay) != nil && refused(replay) == refused(live), "live: \(live.stderr) replay: \(replay.stderr)")

        // scan FILE: the same lines through the inbox (a replay source) as replay's direct read.
        let scan = try Command(["scan", file, "--json"])
        #expect(try await scan.finish() == 0)
        #expect(scan.stdout == replay.stdout)

        // report: per room, the visits the replay's events completed.
        let visits = replay.lines.flatMap { $0["events"] as? [[String: Any]] ?? [] }.filter { $0["type"] as? String == "visit" }
        let report = try Command(["report", file, "--csv"])
        #expect(try await report.finish() == 0)
        let rows = report.stdout.split(separator: "\r\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.first == ["room", "name", "visits", "total_s", "mean_s", "longest_s", "visits_per_hour"])
        for room in ["kitchen", "hall"] {
            let row = try #require(rows.first { $0.first == room }, "\(report.stdout)")
            #expect(Int(row[2]) == visits.filter { $0["room"] as? String == room }.count)
            let dwell = visits.filter { $0["room"] as? String == room }.reduce(0.0) { $0 + ($1["dwell"] as? Double ?? 0) }
            #expect(abs((Double(row[3]) ?? -1) - dwell) <= 0.06)
        }

        // A recording cut inside its last line (a killed recorder) replays up to the last whole line.
        let torn = broker.directory.appendingPathComponent("torn.ndjson").path
        try String(recorded.dropLast(20)).write(toFile: torn, atomically: true, encoding: .utf8)
        let tornReplay = try Command(["replay", torn, "--json"])
        #expect(try await tornReplay.finish() == 0)
        #expect(Self.enters(tornReplay.lines) == liveEnters)

        // A file that is no recording line by line names the line.
        let bad = broker.directory.appendingPathComponent("bad.ndjson").path
        try "{\"beacontopVenueRecording\":1,\"prefix\":\"\"}\n{\"t\":\"soon\",\"topic\":\"x\",\"payload\":\"y\"}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let badReplay = try Command(["replay", bad, "--json"])
        #expect(try await badReplay.finish() == 0)
        #expect(badReplay.stderr.contains("line 2 has no number \"t\""), "\(badReplay.stderr)")
        nodes.stop()
    }
}
}
