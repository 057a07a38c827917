import Foundation
import TestFixtures
import Testing

/// `beacontop monitor tcp:...` on the Bumble world in a real terminal (tmux): the four beacons'
/// rows, and a controller that goes away shown as an event, not a crash.
@Suite("Bumble monitor", .serialized)
struct BumbleMonitorTests {
    static let executable = SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop").path

    /// Fails, with what to do, when tmux or beacontop is missing (never a silent skip).
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(Self.executable)
    }

    @Test("the monitor shows the world's four beacons and no other; a lost controller is an event on screen")
    func monitorShowsTheWorld() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let session = try TmuxSession(
            command: "sh -c '\(Self.executable) monitor tcp:127.0.0.1:\(world.ports[0]); echo EXIT=$?; sleep 60'",
            columns: 120, lines: 30, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        defer { session.kill() }
        // Waits for the four rows' RSSI and the status line, the last things drawn: a capture can land
        // while a frame is still being written.
        let screen = try session.waitFor(timeout: 20, "four beacon rows") {
            $0.contains(" 4 beacons") && $0.contains("https://example.com") && $0.split(separator: "\n").filter { $0.contains(" -50 ") }.count == 4
                && $0.contains("tcp:127.0.0.1:\(world.ports[0]) scanning")
        }
        for row in ["E2C56DB5…:100:1", "2F234454…:1:2", "edd1eb…:0badc0ffee01", "https://example.com"] {
            #expect(screen.contains(row), "no row for \(row)")
        }
        #expect(screen.split(separator: "\n").filter { $0.contains(" -50 ") }.count == 4, "RSSI -50 on each row")
        #expect(screen.contains("tcp:127.0.0.1:\(world.ports[0]) scanning"))

        world.stop()
        let lost = try session.waitFor(timeout: 15, "the loss on the status line") { $0.contains("lost") || $0.contains("reconnecting") }
        #expect(lost.contains("PROXIMITY"), "the monitor is still drawing")
        try session.send("q")
        try session.waitFor("EXIT=0")
        #expect(try session.format("#{alternate_on}") == "0")
    }
}
