import Foundation
import TestFixtures
import Testing

extension VenueCommands {
/// `beacontop monitor FILE.venue.ndjson` in tmux: a venue recording replays without replay
/// controls, so the replay keys say so on the status line (not silently, not that only a capture
/// file has them); the rate is named msg/s; rows carry their RSSI history; and when the
/// recording ends, its open visit closes (the exit in the event log).
@Suite("A venue recording in the monitor (tmux)", .serialized)
struct VenueRecordingMonitorTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    /// Twenty seconds of the kitchen node hearing the beacon four times a second, RSSI -58 to -66.
    static func recording(at path: String) throws {
        var lines = [#"{"beacontopVenueRecording":1,"prefix":""}"#]
        let start = 1_795_411_724.0
        lines.append(#"{"t":\#(start),"topic":"espresense/rooms/kitchen/status","payload":"online","retained":true}"#)
        for step in 0..<80 {
            let rssi = -58 - (step * 3) % 9
            let payload = #"{\"id\":\"\#(VenueCommandTests.espID)\",\"mac\":\"c01122334455\",\"rssi@1m\":-59,\"rssi\":\#(rssi),\"raw\":1.2,\"distance\":1.2,\"var\":0.1,\"int\":100}"#
            lines.append(#"{"t":\#(start + 0.1 + Double(step) / 4),"topic":"espresense/devices/\#(VenueCommandTests.espID)/kitchen","payload":"\#(payload)"}"#)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("Space says on the status line that a venue recording has no replay keys; msg/s; the RSSI sparkline; the open visit closed at the end")
    func venueRecordingInTheMonitor() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-monitor-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.recording(at: path)
        let session = try TmuxSession(
            command: "sh -c '\(VenueCommandTests.executable) monitor \(path) --speed 2; echo EXIT=$?; exec sh'",
            columns: 140, lines: 30, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        defer { session.kill() }
        let placed = try session.waitFor(timeout: 30, "the beacon in the kitchen") { $0.contains("kitchen (kitchen)") }
        #expect(placed.contains("replaying at 2x") && placed.contains("msg/s") && !placed.contains("adv/s"), "\(placed)")

        try session.send("Space")
        let said = try session.waitFor(timeout: 10, "the key's notice") { $0.contains("pause: a venue recording plays at its --speed") }
        #expect(!said.contains("paused"))
        // A few seconds of history later the row's sparkline has several levels (RSSI -58 to -66).
        let later = try session.waitFor(timeout: 20, "a sparkline on the row") { screen in
            guard let row = screen.split(separator: "\n").first(where: { $0.contains("kitchen (kitchen)") }) else { return false }
            return Set(row.filter { "▁▂▃▄▅▆▇█".contains($0) }).count >= 3
        }
        #expect(later.contains("kitchen (kitchen)"))

        _ = try session.waitFor(timeout: 30, "the end of the recording") { $0.contains("replay finished") }
        try session.send("e")
        let log = try session.waitFor(timeout: 10, "the closing exit in the event log") { $0.contains("left kitchen") }
        #expect(log.contains("in kitchen"))
        try session.send("q")
        _ = try session.waitFor(timeout: 20, "the exit") { $0.contains("EXIT=0") }
        #expect(try session.format("#{alternate_on}") == "0")
    }

    @Test("--loop, --from and --to on a venue recording are refused with one line and exit 1, not ignored",
          arguments: [["scan", "--loop"], ["scan", "--from", "5"], ["monitor", "--to", "10"]])
    func replayWindowRefused(arguments: [String]) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-window-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.recording(at: path)
        let command = try VenueCommandTests.Command([arguments[0], path] + arguments.dropFirst())
        #expect(try await command.finish() == 1)
        #expect(command.stderr == "beacontop: '\(path)' is a venue recording: --loop, --from and --to work on capture files; a venue recording replays whole, at --speed\n")
        #expect(command.stdout.isEmpty)
    }
}
}
