import Foundation
import TestFixtures
import Testing

/// The demo in a 40x12 tmux window, as a serial console or a phone's SSH app shows it, then resized:
/// what the pure rendering tests (Tests/TerminalUITests/NarrowScreenTests) assert, on a real terminal.
@Suite(.serialized)
struct NarrowTerminalTests {
    /// The demo in a 40x12 window with its help open (the help's own marker is for each test to wait on).
    static func demoWithItsHelp() throws -> TmuxSession {
        let session = try MonitorTerminalTests.start("demo --speed 4", in: NSTemporaryDirectory(), columns: 40, lines: 12)
        do {
            try session.waitFor(timeout: 20, "the monitor") { $0.contains(" sim:…/museum.yaml scanning") }
            try session.send("?")
        } catch {
            session.kill()
            throw error
        }
        return session
    }

    @Test("at 40x12 the status line keeps 'sim:' and the event log's messages start at column 16; a resize to 80x24 leaves nothing behind")
    func theDemoAtFortyColumns() throws {
        try TestPrerequisites.requireTmux()
        let session = try MonitorTerminalTests.start("demo --speed 4", in: NSTemporaryDirectory(), columns: 40, lines: 12)
        defer { session.kill() }
        // It read '…:demo/museum.yaml'; the path is cut, not the kind.
        try session.waitFor(timeout: 20, "the source's kind on the status line") { $0.contains(" sim:…/museum.yaml scanning") }
        try session.send("e")
        // An event's message at column 16 (it was 32): a line such as ' 00:05 info     nearest: ...'.
        let log = try session.waitFor(timeout: 20, "an event with its message at column 16") { screen in
            screen.split(separator: "\n").contains { $0.wholeMatch(of: /^ \d\d:\d\d (enter|info) {3,5}\S.*/) != nil }
        }
        #expect(log.contains("  TIME KIND     WHAT"), "\(log)")
        try session.resize(columns: 80, lines: 24)
        // From another directory the demo names its catalog by its whole path, which 80 columns hold.
        let wide = try session.waitFor(timeout: 20, "the 80-column log") { $0.contains(" sim:/") && $0.contains("/demo/museum.yaml scanning") }
        let heading = try #require(wide.split(separator: "\n").first { $0.contains("TIME KIND") }, "\(wide)")
        // One count, at the right edge: nothing of the 40-column heading left in the middle.
        #expect(heading.ranges(of: "Events (").count == 1 && heading.trimmingCharacters(in: .whitespaces).hasSuffix(")"), "\(heading)")
        #expect(heading.count == 79, "the count ends one column from the edge: \(heading)")
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("at 40x12 the help scrolls: End shows its last key (left out before), k brings the marker back, Esc closes it")
    func theHelpScrollsAtFortyByTwelve() throws {
        try TestPrerequisites.requireTmux()
        let session = try Self.demoWithItsHelp()
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the help's top and its marker") { $0.contains("Keys (Esc or ? returns)") && $0.contains(" more lines (j/k, PgDn)") }
        try session.send("End")
        // The last key, which did not fit at this size ('12 more: enlarge'); nothing left below.
        try session.waitFor(timeout: 20, "the help's last key") { $0.contains(" Esc Bksp   back to the table") && !$0.contains("more line") }
        try session.send("k")
        try session.waitFor(timeout: 20, "one line up: two lines below") { $0.contains(" ↓ 2 more lines (j/k, PgDn)") }
        try session.send("Escape")
        try session.waitFor(timeout: 20, "the table") { $0.contains(" NAME") && !$0.contains("Keys (Esc") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("the help scrolled to a key at 40x12 keeps that key at the top when the window is resized to 60 columns and back; it showed another key")
    func theHelpKeepsItsKeyAcrossAResize() throws {
        try TestPrerequisites.requireTmux()
        let session = try Self.demoWithItsHelp()
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the help's marker") { $0.contains(" ↓ 33 more lines (j/k, PgDn)") }
        // Eighteen lines down, the filter key is at the top (nine keys of two lines above it).
        for _ in 0..<18 { try session.send("j") }
        func rows(_ screen: String) -> [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let narrow = try session.waitFor(timeout: 20, "the filter key at the top") { screen in
            rows(screen)[2...3] == [" /          filter this screen: text or", "            UUID[:major[:minor]]"] && screen.contains(" ↓ 15 more lines")
        }
        // Wider, every summary above it takes one line less: at line 18 another key was at the top.
        try session.resize(columns: 60, lines: 12)
        try session.waitFor(timeout: 20, "the filter key at the top at 60 columns") { screen in
            rows(screen)[2] == " /          filter this screen: text or UUID[:major[:minor]]" && rows(screen)[3].hasPrefix(" f          pick the ranging filter")
        }
        try session.resize(columns: 40, lines: 12)
        try session.waitFor(timeout: 20, "the same lines at 40 columns again") { rows($0)[2...10] == rows(narrow)[2...10] }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    @Test("a terminal that sends the normal-mode cursor keys (ESC [ B, ESC [ F) scrolls the help; they were read as Esc, which closed it")
    func normalModeCursorKeysScrollTheHelp() throws {
        try TestPrerequisites.requireTmux()
        let session = try Self.demoWithItsHelp()
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the help's marker") { $0.contains(" ↓ 33 more lines (j/k, PgDn)") }
        // tmux translates its own key names to the mode the program asked for; raw bytes are what a
        // terminal that ignores keypad mode sends.
        try session.sendBytes([0x1B, 0x5B, 0x42])
        try session.waitFor(timeout: 20, "one line down") { $0.contains(" ↓ 32 more lines (j/k, PgDn)") }
        try session.sendBytes([0x1B, 0x5B, 0x46])
        try session.waitFor(timeout: 20, "the help's last key") { $0.contains(" Esc Bksp   back to the table") && !$0.contains("more line") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }
}
