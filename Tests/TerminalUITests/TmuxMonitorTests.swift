import Foundation
import Glibc
import TestFixtures
import Testing

/// `swift test` builds every product of the package, the bench included, into the same directory.
let benchExecutable = SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop-bench").path

/// The real loop in a real terminal (tmux): keys in, `capture-pane` out, and the terminal restored on
/// every exit path. Runs `beacontop-bench monitor`: the monitor's loop and session fed live by 20
/// synthetic beacons at 10 Hz.
@Suite(.serialized)
struct TmuxMonitorTests {
    /// Fails every test, with what to do, when tmux or the bench is missing (never a silent skip).
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(benchExecutable)
    }

    static let bench = benchExecutable

    /// The monitor under a shell that reports its exit status, then prints the terminal modes (they
    /// must be the cooked ones again). The shell traps SIGINT so that C-c, which the terminal sends to
    /// the whole foreground group, does not end the shell too; the monitor starts with the default action.
    static let wrapped = "sh -c 'trap : INT; \(benchExecutable) monitor 20 60; echo EXIT=$?; stty -a; echo STTY-DONE; sleep 60'"

    func start(_ command: String = wrapped, environment: [String: String] = [:]) throws -> TmuxSession {
        let standard = ["LANG": "C.UTF-8", "TERM": "screen-256color",
                        // The Swift backtracer would otherwise wait 30 s for a key after a crash.
                        "SWIFT_BACKTRACE": "interactive=no"]
        let session = try TmuxSession(command: command, columns: 100, lines: 30,
                                      environment: standard.merging(environment) { $1 })
        try session.waitFor("monitor benchmark")
        // The Linux console's terminfo has no alternate screen.
        #expect(try session.format("#{alternate_on}") == (environment["TERM"] == "linux" ? "0" : "1"))
        return session
    }

    @Test func keysDriveTheScreenAndQRestoresTheTerminal() throws {
        let session = try start()
        defer { session.kill() }
        try session.send("s")
        try session.waitFor("sort: rssi")
        // The beacons arrive live: select one once the first have been ranged.
        try session.waitFor("E2C56DB5")
        try session.send("Down", "Enter")
        let detail = try session.waitFor("Last raw frame (30 bytes)")
        #expect(detail.contains("monitor benchmark · detail"))
        #expect(detail.contains("RSSI, dBm ("))
        try session.send("Escape")
        try session.waitFor("PROXIMITY")
        try session.send("?")
        // The summary, below the heading: a capture can land while the frame is still being written.
        let help = try session.waitFor("sort by distance, RSSI, name, id")
        #expect(help.contains("Keys (Esc or ? returns)"))
        try session.send("Escape", "q")
        let after = try session.waitFor("STTY-DONE")
        #expect(after.contains("EXIT=0"))
        #expect(after.contains("exit quit"))
        #expect(!after.contains("PROXIMITY"))
        let modes = after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        for mode in ["icanon", "echo", "icrnl", "opost", "isig"] {
            #expect(modes.contains(Substring(mode)), "\(mode) is off after q")
        }
        #expect(try session.format("#{alternate_on}") == "0")
        #expect(try session.format("#{cursor_flag}") == "1")
    }

    @Test func interruptAndTerminateRestoreTheTerminal() throws {
        let interrupted = try start()
        defer { interrupted.kill() }
        try interrupted.send("C-c")
        try interrupted.waitFor("EXIT=0")
        #expect(try interrupted.capture(history: true).contains("exit signal(2)"))
        #expect(try interrupted.format("#{alternate_on}") == "0")
        #expect(try interrupted.format("#{cursor_flag}") == "1")

        let terminated = try start()
        defer { terminated.kill() }
        let monitor = try #require(try terminated.childProcessIDs().first)
        #expect(Glibc.kill(monitor, SIGTERM) == 0)
        let after = try terminated.waitFor("STTY-DONE")
        #expect(after.contains("EXIT=0"))
        #expect(after.contains("exit signal(15)"))
        #expect(after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).contains("icanon"))
        #expect(try terminated.format("#{alternate_on}") == "0")
        #expect(try terminated.format("#{cursor_flag}") == "1")
    }

    /// SIGHUP (the terminal or the SSH session went away) and SIGQUIT (kill, or Ctrl-\ from the
    /// keyboard, which the terminal sends to the whole foreground group: the wrapper ignores it) end
    /// the loop like SIGINT: every mode the monitor set is undone, mouse tracking and keypad mode too.
    @Test(arguments: [("kill", SIGHUP), ("kill", SIGQUIT), ("C-\\", SIGQUIT)])
    func hangUpAndQuitRestoreTheTerminal(how: String, signal: Int32) throws {
        let session = try start("sh -c 'trap : INT QUIT; \(benchExecutable) monitor 20 60; echo EXIT=$?; stty -a; echo STTY-DONE; sleep 60'")
        defer { session.kill() }
        #expect(try session.format("#{mouse_any_flag}") == "1", "the monitor tracks the mouse while it runs")
        if how == "kill" {
            let monitor = try #require(try session.childProcessIDs().first)
            #expect(Glibc.kill(monitor, signal) == 0)
        } else {
            try session.send(how)
        }
        let after = try session.waitFor("STTY-DONE")
        #expect(after.contains("EXIT=0"), "\(after)")
        #expect(after.contains("exit signal(\(signal))"))
        let modes = after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        for mode in ["icanon", "echo", "icrnl", "opost", "isig"] {
            #expect(modes.contains(Substring(mode)), "\(mode) is off after \(how) \(signal)")
        }
        #expect(try session.format("#{alternate_on}") == "0")
        #expect(try session.format("#{cursor_flag}") == "1")
        #expect(try session.format("#{mouse_any_flag}") == "0")
        #expect(try session.format("#{keypad_cursor_flag}") == "0")
        #expect(try session.format("#{keypad_flag}") == "0")
    }

    /// A terminal closed while no SIGHUP reaches the monitor (the shell that started it ignores HUP
    /// and does not pass it on, as this wrapper and some launch scripts do): the terminal's hang-up
    /// itself ends the loop, through the same clean-up as SIGHUP. Before, poll() reported the dead
    /// terminal at once on every turn and the loop spun on a full core until killed.
    @Test func aClosedTerminalEndsTheMonitor() throws {
        let statusFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("beacontop-closed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: statusFile) }
        let session = try start("sh -c 'trap \"\" HUP; \(benchExecutable) monitor 20 60; echo EXIT=$? > \(statusFile)'")
        let monitor = try #require(try session.childProcessIDs().first)
        defer { Glibc.kill(monitor, SIGKILL) } // only if the check below failed: it would spin on
        session.kill() // the tmux server goes, and with it the pane's terminal
        let deadline = Date().addingTimeInterval(15) // a watchdog: the bench itself runs 60 s
        var status: String?
        while Date() < deadline {
            status = try? String(contentsOfFile: statusFile, encoding: .utf8)
            if status?.contains("\n") == true { break }
            usleep(50_000)
        }
        #expect(status == "EXIT=0\n", "the monitor did not end when its terminal closed")
    }

    /// A Swift trap is SIGILL on x86-64 (ud2) and SIGTRAP on arm64 (brk); a wild pointer is SIGSEGV.
    /// Sending the signal exercises the same handler a real crash reaches.
    @Test(arguments: [SIGILL, SIGSEGV, SIGTRAP])
    func aCrashStillRestoresTheTerminal(signal: Int32) throws {
        let session = try start()
        defer { session.kill() }
        let monitor = try #require(try session.childProcessIDs().first)
        #expect(Glibc.kill(monitor, signal) == 0)
        // The shell reports death by signal as 128 + n; the Swift runtime's crash report, which the
        // handler passes the signal on to, is printed on the restored screen.
        let after = try session.waitFor("STTY-DONE")
        #expect(after.contains("EXIT=\(128 + signal)"))
        #expect(after.contains("💣 Program crashed"))
        let modes = after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        for mode in ["icanon", "echo", "icrnl", "isig"] {
            #expect(modes.contains(Substring(mode)), "\(mode) is off after signal \(signal)")
        }
        #expect(try session.format("#{alternate_on}") == "0")
        #expect(try session.format("#{cursor_flag}") == "1")
    }

    @Test func noColorAndAnASCIILocaleInARealTerminal() throws {
        // Each screen is read once the first beacons are ranged and the rate is measured: the
        // first frames (the title alone, no rate yet) come sooner on a loaded machine.
        let colour = try start()
        defer { colour.kill() }
        try colour.waitFor("a ranged table") { $0.contains("E2C56DB5") && $0.contains(" adv/s") }
        let colourful = try colour.capture(escapes: true)
        #expect(colourful.contains("\u{1B}[38;5;") || colourful.contains("\u{1B}[3"))

        let plain = try start(environment: ["LANG": "C", "LC_ALL": "C", "NO_COLOR": "1"])
        defer { plain.kill() }
        let screen = try plain.waitFor("a ranged table") {
            $0.contains("beacontop | monitor benchmark") && $0.contains("E2C56DB5") && $0.contains(" adv/s")
        }
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(screen.contains("synthetic scanning | ") && screen.contains(" adv/s"))
        let sgr = try plain.capture(escapes: true)
        // Attributes (bold 1, dim 2, underline 4, reverse 7) but no foreground or background colour.
        let colourCodes = ["[3", "[4", ";3", ";4"].filter { code in
            sgr.components(separatedBy: "\u{1B}").contains { $0.hasPrefix(code) && !$0.hasPrefix("[4m") && !$0.hasPrefix("[39") && !$0.hasPrefix("[49") }
        }
        #expect(colourCodes.isEmpty, "colour escapes under NO_COLOR: \(colourCodes)")
        #expect(sgr.contains("\u{1B}[7m") || sgr.contains(";7m"))
    }

    /// The Linux console (a kiosk with no X, TERM=linux): its fonts have box drawing, `·`, `…`,
    /// `█`, `░` and `▒` but none of the eighth blocks U+2581-2587, which it would draw as replacement
    /// glyphs, so sparklines and charts must not use them there; the rest stays Unicode.
    @Test func theLinuxConsoleGetsNoGlyphItsFontsLack() throws {
        let session = try start(environment: ["TERM": "linux"])
        defer { session.kill() }
        let missing = Set((0x2581...0x2587).compactMap(Unicode.Scalar.init) + ["\u{2593}"])
        let table = try session.waitFor("a ranged table with sparklines") {
            $0.contains("E2C56DB5") && $0.contains(" adv/s") && $0.contains("HISTORY")
        }
        #expect(!table.unicodeScalars.contains { missing.contains($0) }, "\(table)")
        #expect(table.contains("beacontop · monitor benchmark"))
        try session.send("Enter")
        let detail = try session.waitFor("Last raw frame (30 bytes)")
        #expect(!detail.unicodeScalars.contains { missing.contains($0) }, "\(detail)")
        #expect(detail.contains("█"), "the charts' full cells")
    }

    @Test func aTerminalResizeRedrawsWithFewerColumns() throws {
        let session = try start()
        defer { session.kill() }
        try session.waitFor("TX@1m")
        try session.resize(columns: 45, lines: 12)
        let narrow = try session.waitFor(timeout: 10, "a 45-column table") { screen in
            screen.contains("PROXIMITY") && !screen.contains("TX@1m")
        }
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 45 })
        try session.resize(columns: 30, lines: 8)
        try session.waitFor("Terminal too small: 30x8")
        try session.send("q")
        try session.waitFor("EXIT=0")
    }
}
