import Foundation
import TestFixtures
import Testing

/// The monitor holds a replay at its end (a real terminal, tmux): after `replay finished`, `→` says
/// there is nothing further, space and `←` still work (the position goes back and the status says
/// paused), playing on reaches the end again, and `q` quits with the terminal restored. Before,
/// the replay had ended and every replay key did nothing.
@Suite(.serialized)
struct ReplayHoldTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// The status line's `mm:ss/mm:ss`, as (position, length) in seconds.
    static func clocks(_ screen: String) -> (position: Int, length: Int)? {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains("? help") || $0.contains("replay") || $0.contains("paused") }),
              let match = line.firstMatch(of: /(\d\d):(\d\d)\/(\d\d):(\d\d)/) else { return nil }
        return (Int(match.1)! * 60 + Int(match.2)!, Int(match.3)! * 60 + Int(match.4)!)
    }

    static func statusLine(_ screen: String) -> Substring {
        screen.split(separator: "\n").last { $0.range(of: #"\d\d:\d\d/\d\d:\d\d"#, options: .regularExpression) != nil } ?? ""
    }

    func holdAndGoBack(_ file: String) throws {
        let session = try MonitorTerminalTests.start("monitor \(file) --speed max")
        defer { session.kill() }
        try session.waitFor(timeout: 30, "replay finished at the length") { screen in
            guard let clocks = Self.clocks(screen) else { return false }
            return Self.statusLine(screen).contains("replay finished") && clocks.position == clocks.length
        }
        try session.send("Right")
        try session.waitFor(timeout: 10, "→ at the end says there is nothing further") { $0.contains("nothing further (← goes back)") }
        try session.send("Space", "Left")
        let paused = try session.waitFor(timeout: 15, "← back 10 s, paused") { screen in
            guard let clocks = Self.clocks(screen) else { return false }
            return Self.statusLine(screen).contains("paused") && clocks.position < clocks.length && clocks.position >= clocks.length - 11
        }
        #expect(!Self.statusLine(paused).contains("replay finished"), "\(paused)")
        try session.send("Space")
        try session.waitFor(timeout: 30, "played on to the end again") { screen in
            guard let clocks = Self.clocks(screen) else { return false }
            return Self.statusLine(screen).contains("replay finished") && clocks.position == clocks.length
        }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("a capture: held at its end, ← and space still work, q quits")
    func capture() throws {
        try holdAndGoBack(SharedData.capture("govee-h5100.btsnoop").path)
    }

    @Test("a venue recording: held at its end, ← and space still work, q quits")
    func venueRecording() throws {
        try holdAndGoBack(SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path)
    }

    @Test("an advertisement script: held at its end, ← and space still work, q quits")
    func advertisementScript() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hold-script-\(UUID().uuidString.prefix(8)).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = (0...40).map { #"{"t": \#($0), "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}"# }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try holdAndGoBack(path)
    }
}
