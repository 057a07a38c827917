import Foundation
import TestFixtures
import Testing

/// What the monitor's status line says about a replay, in a real terminal (tmux): where it is and
/// how long the recording is (`00:12/06:35`), and a `--from` past the end said in words.
@Suite(.serialized)
struct ReplayStatusTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// `mm:ss` of the capture's length as Wireshark counts it (the last frame's time relative to
    /// the first): a reader that is not ours.
    static func lengthByTshark(_ path: String) throws -> Double {
        let run = try ExternalCommand.run("/usr/bin/tshark", ["-r", path, "-T", "fields", "-e", "frame.time_relative"])
        return try #require(run.stdout.split(separator: "\n").last.flatMap { Double($0) }, "tshark: \(run.stderr)")
    }

    static func clock(_ seconds: Double) -> String {
        String(format: "%02d:%02d", Int(seconds) / 60, Int(seconds) % 60)
    }

    @Test("the status line shows the position and the capture's length, as a media player does")
    func positionAndLength() throws {
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let length = Self.clock(try Self.lengthByTshark(capture))
        let session = try MonitorTerminalTests.start("monitor \(capture) --speed 1")
        defer { session.kill() }
        let screen = try session.waitFor(timeout: 15, "the position and the length") { screen in
            screen.split(separator: "\n").last { $0.contains("replaying") }?.contains("/\(length)") == true
        }
        let status = screen.split(separator: "\n").last { $0.contains("replaying") } ?? ""
        #expect(status.range(of: #"00:0\d/"# + length, options: .regularExpression) != nil, "\(status)")
        try session.send("Right", "Right", "Right")
        try session.waitFor(timeout: 10, "the position 30 s on, the length unchanged") { screen in
            screen.split(separator: "\n").last { $0.contains("replaying") }?.contains("00:3") == true
                && screen.contains("/\(length)")
        }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    /// The event log's TIME counted from the session's first packet: with `--from 120` an event at
    /// 02:01 on the status line's clock was logged at 00:01. One clock now: the replay's position.
    @Test("a replay's event log shows the position the status line shows, --from included")
    func eventTimesAreThePosition() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let museum = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let session = try MonitorTerminalTests.start("monitor \(walk) --exhibits \(museum) --from 120 --speed 4")
        defer { session.kill() }
        try session.waitFor(timeout: 15, "the replay at 02:xx") { $0.contains("replaying at 4x · 02:") }
        try session.send("e")
        let screen = try session.waitFor(timeout: 15, "the visitor's first nearest exhibit") { $0.contains(" info     nearest: ") }
        let times = screen.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/^ (\d\d):(\d\d) (enter|exit|info|warning) /#).map { Int($0.1)! * 60 + Int($0.2)! }
        }
        #expect(!times.isEmpty && times.allSatisfy { $0 >= 120 && $0 <= 210 }, "\(screen)")
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("a venue recording shows its length too, d lists the phones its ESPresense nodes report, / narrows the list, Enter shows the scanners hearing one, / narrows the scanner list and the event log")
    func venueRecordingLength() throws {
        let recording = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path
        let session = try MonitorTerminalTests.start("monitor \(recording) --speed 1")
        defer { session.kill() }
        // mixed.venue.ndjson holds 90 s of a small venue.
        try session.waitFor(timeout: 15, "the position and the length") { screen in
            screen.split(separator: "\n").last { $0.contains("replaying") }?.range(of: #"00:\d\d/01:(29|30)"#, options: .regularExpression) != nil
        }
        // Its two phones (ids that name no beacon) are no rows; the device list shows each placed in
        // its room (ROOM, then SCANNER: an unplaced one reads `?` before its scanner).
        try session.send("d")
        try session.waitFor(timeout: 20, "irk:0011aabb in café, name:Visitor's phone in hall") { screen in
            screen.contains(#/\n irk:0011aabb +café +café +-\d+ /#) && screen.contains(#/\n name:Visitor's phone +hall +hall +-\d+ /#)
        }
        // `/` on the list narrows it: the irk phone alone, counted 1 of 2 in the title.
        try session.send("/", "i", "r", "k", "Enter")
        try session.waitFor(timeout: 10, "irk:0011aabb alone, 1 of 2 devices · /irk") { screen in
            screen.contains("1 of 2 devices · /irk") && screen.contains(#/\n irk:0011aabb +café /#) && !screen.contains("Visitor")
        }
        // Enter on the selected phone: every scanner hearing it, the café's marked as placing it,
        // and how long it has been there; Esc goes back to the list.
        try session.send("Enter")
        try session.waitFor(timeout: 10, "irk:0011aabb's detail: in café, >café and another room's scanner") { screen in
            screen.contains("beacontop · device ") && screen.contains("\n irk:0011aabb\n") && screen.contains(#/\n In café for \d\d:\d\d, placed by café/#)
                && screen.contains(#/\n SCANNER +ROOM +RSSI/#) && screen.contains(#/\n>café +café +-\d+ /#)
                && screen.contains(#/\n (hall|lab|shop) +(hall|lab|shop) +-\d+ /#)
        }
        try session.send("Escape")
        try session.waitFor(timeout: 10, "the list again") { screen in
            screen.contains("beacontop · devices ") && screen.contains(#/\n irk:0011aabb +café /#)
        }
        // The scanner list filters itself: its two beacontop agents of six scanners.
        try session.send("n", "/", "p", "i", "-", "Enter")
        try session.waitFor(timeout: 10, "pi-a and pi-b alone, 2 of 6 scanners · /pi-") { screen in
            screen.contains("2 of 6 scanners · /pi-") && screen.contains(#/\n pi-a +pi-a +online /#) && screen.contains(#/\n pi-b +pi-b +online /#)
                && !screen.contains(" café ")
        }
        // So does the event log: the events that name the café, counted of all.
        try session.send("e", "/", "c", "a", "f", "é", "Enter")
        try session.waitFor(timeout: 10, "the café's events alone, Events (N of M)") { screen in
            screen.contains(" · /café") && screen.contains(#/Events \(\d+ of \d+\)/#) && screen.contains("irk:0011aabb in café")
                && !screen.contains(" in lab") && !screen.contains("scanner pi-a online")
        }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("--from past the end: said on the status line and again on exit, with status 64")
    func fromPastTheEnd() throws {
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let tenths = (try Self.lengthByTshark(capture) * 10).rounded(.down) / 10
        let expected = "nothing replayed: --from 5000 s is past the end (0-\(tenths) s)"
        // Run beside the capture: the message on exit names it as given, on one line of the terminal.
        let session = try MonitorTerminalTests.start(
            "monitor govee-h5100.btsnoop --speed max --from 5000", in: SharedData.capture("govee-h5100.btsnoop").deletingLastPathComponent().path
        )
        defer { session.kill() }
        let screen = try session.waitFor(timeout: 20, "nothing replayed on the status line") { $0.contains(expected) }
        #expect(!screen.contains("replay finished"))
        try session.send("q")
        let after = try session.waitFor("EXIT=64")
        #expect(after.contains("beacontop: govee-h5100.btsnoop: \(expected)"), "\(after)")
    }
}
