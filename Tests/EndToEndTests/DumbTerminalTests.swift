import Foundation
import TestFixtures
import Testing

/// A terminal ncurses knows but that cannot move the cursor (TERM=dumb, what Emacs' shell and some
/// CI consoles set): the monitor refuses at start with what to do, instead of drawing every frame
/// as scrolling lines of which only the status line stayed readable.
@Suite struct DumbTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("demo under TERM=dumb: status 1, one line naming TERM=dumb, nothing drawn, the terminal as it was")
    func dumbTerminalIsRefused() throws {
        let session = try TmuxSession(
            command: "sh -c '\(beacontopExecutable) demo --speed 4; echo EXIT=$?; TERM=xterm stty -a; echo $((40 + 2))DONE; sleep 60'",
            columns: 100, lines: 30, environment: ["TERM": "dumb", "LANG": "C.UTF-8"]
        )
        defer { session.kill() }
        let screen = try session.waitFor("42DONE", timeout: 20)
        #expect(screen.contains("EXIT=1"), "\(screen)")
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("beacontop: cannot start the terminal UI: TERM=dumb cannot move the cursor"), "\(screen)")
        #expect(!screen.contains("adv/s") && !screen.contains("Little Museum"), "the monitor drew: \(screen)")
        let modes = screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        for mode in ["icanon", "echo", "icrnl", "opost", "isig"] {
            #expect(modes.contains(Substring(mode)), "\(mode) is off")
        }
    }
}
