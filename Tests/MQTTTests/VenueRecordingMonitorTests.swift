import Foundation
import TestFixtures
import Testing

extension VenueCommands {
/// `beacontop monitor FILE.venue.ndjson` in tmux: a venue recording has a capture replay's keys
/// (space pauses and resumes, `→`/`←` seek, `+` speeds up) with its state and position on the
/// status line; the rate is named msg/s; rows carry their RSSI history; when the recording ends,
/// its open visit closes (the exit in the event log); q restores the terminal.
@Suite("A venue recording in the monitor (tmux)", .serialized)
struct VenueRecordingMonitorTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    /// `seconds` of the kitchen node hearing the beacon four times a second, RSSI -58 to -66.
    static func recording(at path: String, seconds: Int = 20) throws {
        var lines = [#"{"beacontopVenueRecording":1,"prefix":""}"#]
        let start = 1_795_411_724.0
        lines.append(#"{"t":\#(start),"topic":"espresense/rooms/kitchen/status","payload":"online","retained":true}"#)
        for step in 0..<(seconds * 4) {
            let rssi = -58 - (step * 3) % 9
            let payload = #"{\"id\":\"\#(VenueCommandTests.espID)\",\"mac\":\"c01122334455\",\"rssi@1m\":-59,\"rssi\":\#(rssi),\"raw\":1.2,\"distance\":1.2,\"var\":0.1,\"int\":100}"#
            lines.append(#"{"t":\#(start + 0.1 + Double(step) / 4),"topic":"espresense/devices/\#(VenueCommandTests.espID)/kitchen","payload":"\#(payload)"}"#)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The replay position on the status line (`· 00:42 ·`, or `· 00:42/01:29 ·` once the length
    /// is known), in seconds.
    static func position(_ screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains(" msg/s") }),
              let match = line.firstMatch(of: /· (\d\d):(\d\d)(?:\/\d\d:\d\d)? ·/) else { return nil }
        return Int(match.1)! * 60 + Int(match.2)!
    }

    /// The monitor in a 140x30 tmux on a `recording(seconds:)` at `speed`, and the recording's path.
    static func monitor(seconds: Int, speed: Int) throws -> (TmuxSession, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-monitor-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        try recording(at: path, seconds: seconds)
        let session = try TmuxSession(
            command: "sh -c '\(VenueCommandTests.executable) monitor \(path) --speed \(speed); echo EXIT=$?; exec sh'",
            columns: 140, lines: 30, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        return (session, path)
    }

    @Test("Space pauses and resumes, → and ← seek 10 s with the position on the status line, + speeds up; msg/s; the RSSI sparkline; the open visit closed at the end; q restores the terminal")
    func venueRecordingInTheMonitor() throws {
        let (session, path) = try Self.monitor(seconds: 90, speed: 2)
        defer {
            session.kill()
            try? FileManager.default.removeItem(atPath: path)
        }
        // Waits for the status line too, drawn below the row: a capture can land mid-frame.
        let placed = try session.waitFor(timeout: 30, "the beacon in the kitchen") { $0.contains("kitchen (kitchen)") && $0.contains("replaying at 2x") }
        #expect(placed.contains("replaying at 2x") && placed.contains("msg/s") && !placed.contains("adv/s"), "\(placed)")

        try session.send("Space")
        let paused = try session.waitFor(timeout: 10, "paused on the status line") { $0.contains("paused") && Self.position($0) != nil }
        let here = try #require(Self.position(paused))
        // Paused, the position stays (two seconds of a 2x replay would move it 4 s).
        usleep(2_000_000)
        #expect(Self.position(try session.capture()) == here)
        try session.send("Space")
        _ = try session.waitFor(timeout: 10, "replaying again") { $0.contains("replaying at 2x") }

        try session.send("Right")
        let ahead = try session.waitFor(timeout: 10, "the position 10 s on") { (Self.position($0) ?? 0) >= here + 10 }
        #expect(ahead.contains("kitchen (kitchen)"))
        let forward = try #require(Self.position(ahead))
        try session.send("Left")
        let back = try session.waitFor(timeout: 10, "the position 10 s back") { screen in
            guard let position = Self.position(screen) else { return false }
            return position < forward && position >= forward - 12
        }
        #expect(back.contains("kitchen (kitchen)"), "the view rebuilt up to the target places the beacon again: \(back)")
        // A few seconds of history later the row's sparkline has several levels (RSSI -58 to -66).
        let later = try session.waitFor(timeout: 20, "a sparkline on the row") { screen in
            guard let row = screen.split(separator: "\n").first(where: { $0.contains("kitchen (kitchen)") }) else { return false }
            return Set(row.filter { "▁▂▃▄▅▆▇█".contains($0) }).count >= 3
        }
        #expect(later.contains("kitchen (kitchen)"))

        try session.send("+", "+", "+")
        _ = try session.waitFor(timeout: 10, "16x on the status line") { $0.contains("replaying at 16x") }
        _ = try session.waitFor(timeout: 30, "the end of the recording") { $0.contains("replay finished") }
        try session.send("e")
        let log = try session.waitFor(timeout: 10, "the closing exit in the event log") { $0.contains("left kitchen") }
        #expect(log.contains("in kitchen") && log.contains("seek back: the venue view rebuilt"))
        try session.send("q")
        _ = try session.waitFor(timeout: 20, "the exit") { $0.contains("EXIT=0") }
        #expect(try session.format("#{alternate_on}") == "0")
    }

    @Test("A seek back resumes from a checkpoint and lands on the screen the seek forward showed at the same position")
    func seekBackFromCheckpoint() throws {
        let (session, path) = try Self.monitor(seconds: 180, speed: 1)
        defer {
            session.kill()
            try? FileManager.default.removeItem(atPath: path)
        }
        _ = try session.waitFor(timeout: 30, "the beacon in the kitchen") { $0.contains("kitchen (kitchen)") }
        try session.send("Space")
        let paused = try session.waitFor(timeout: 10, "paused") { $0.contains("paused") && Self.position($0) != nil }
        let here = try #require(Self.position(paused))
        /// The beacon's row without its sparkline (a seek back starts it again) and its age (a seek
        /// back sets the clock to the target, a seek forward to the last message before it).
        func row(_ screen: String) -> String? {
            guard let line = screen.split(separator: "\n").first(where: { $0.contains("kitchen (kitchen)") }) else { return nil }
            return line.filter { !"▁▂▃▄▅▆▇█".contains($0) }.split(separator: " ").dropLast().joined(separator: " ")
        }
        /// The row at `position` once the messages up to it are all drawn: the status line shows the
        /// target as the replay reaches it, the messages before it may be in the inbox a frame longer,
        /// so the row must read the same in two screens 1.5 s apart (paused, nothing else moves it).
        func settledRow(at position: Int) throws -> String? {
            var last: String?
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let screen = try session.waitFor(timeout: 30, "at \(position) s") { Self.position($0) == position && row($0) != nil }
                if let last, row(screen) == last { return last }
                last = row(screen)
                usleep(1_500_000)
            }
            return nil
        }
        for _ in 0..<12 { try session.send("Right") }
        let ahead = try settledRow(at: here + 120)
        try session.send("Right", "Right")
        _ = try session.waitFor(timeout: 30, "140 s on") { Self.position($0) == here + 140 }
        try session.send("Left", "Left")
        let back = try settledRow(at: here + 120)
        #expect(ahead != nil && back == ahead)
        try session.send("e")
        let log = try session.waitFor(timeout: 10, "the seek back in the event log") { $0.contains("seek back") && $0.contains("checkpoint at 120 s") }
        #expect(log.contains("seek back: the venue view rebuilt from its") && log.contains("checkpoint at 120 s"), "\(log)")
        try session.send("q")
        _ = try session.waitFor(timeout: 20, "the exit") { $0.contains("EXIT=0") }
    }

    @Test("--from and --to cut a venue recording as they cut a capture: the view's lines lie inside the window")
    func replayWindow() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-window-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.recording(at: path)
        let command = try VenueCommandTests.Command(["scan", path, "--json", "--speed", "max", "--from", "5", "--to", "10"])
        #expect(try await command.finish() == 0)
        let times = command.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\{"t":([0-9.]+),/).flatMap { Double($0.1) }
        }
        // The recording's first message is at 1_795_411_724; the window 5-10 s after it.
        #expect(times.count >= 5, "\(command.stdout)")
        #expect(times.allSatisfy { $0 >= 1_795_411_729 && $0 <= 1_795_411_734.1 }, "\(times)")
        #expect(command.stdout.contains("\"room\":\"kitchen\""))
    }

    @Test("--loop on a venue recording starts it over (said on stderr) until stopped")
    func replayLoop() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-loop-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.recording(at: path, seconds: 3)
        let command = try VenueCommandTests.Command(["scan", path, "--json", "--speed", "max", "--loop"])
        try await command.waitForStderr("looping (3)")
        command.process.interrupt()
        #expect(try await command.finish() == 0)
        let times = command.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\{"t":([0-9.]+),/).flatMap { Double($0.1) }
        }
        // Three passes of 3 s, each 1 s after the last: the view's clock past 12 s, never back.
        #expect((times.last ?? 0) - 1_795_411_724 >= 12, "\(times)")
        #expect(times == times.sorted())
    }
}
}
