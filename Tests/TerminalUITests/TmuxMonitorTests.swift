import Foundation
import Glibc
import TestFixtures
import Testing

/// `swift test` builds every product of the package, the bench included, into the same directory.
let benchExecutable = SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop-bench").path

/// The real loop in a real terminal (tmux): keys in, `capture-pane` out, and the terminal restored on
/// every exit path. Runs `beacontop-bench monitor`, the runnable entry this layer has until the lead
/// wires `beacontop monitor`.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable && FileManager.default.isExecutableFile(atPath: benchExecutable)))
struct TmuxMonitorTests {
    static let bench = benchExecutable

    /// The monitor under a shell that reports its exit status, then prints the terminal modes (they
    /// must be the cooked ones again). The shell traps SIGINT so that C-c, which the terminal sends to
    /// the whole foreground group, does not end the shell too; the monitor starts with the default action.
    static let wrapped = "sh -c 'trap : INT; \(benchExecutable) monitor 20 60; echo EXIT=$?; stty -a; sleep 60'"

    func start(_ command: String = wrapped) throws -> TmuxSession {
        let session = try TmuxSession(command: command, columns: 100, lines: 30,
                                      environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"])
        try session.waitFor("monitor benchmark")
        #expect(try session.format("#{alternate_on}") == "1")
        return session
    }

    @Test func keysDriveTheScreenAndQRestoresTheTerminal() throws {
        let session = try start()
        defer { session.kill() }
        try session.send("s")
        try session.waitFor("sort: rssi")
        try session.send("Down", "Enter")
        let detail = try session.waitFor("Last raw frame (30 bytes)")
        #expect(detail.contains("monitor benchmark · detail"))
        #expect(detail.contains("RSSI, dBm (60 samples)"))
        try session.send("Escape")
        try session.waitFor("PROXIMITY")
        try session.send("?")
        let help = try session.waitFor("Keys (Esc or ? returns)")
        #expect(help.contains("sort by distance, RSSI, name, id"))
        try session.send("Escape", "q")
        try session.waitFor("EXIT=0")
        let after = try session.capture(history: true)
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
        try terminated.waitFor("EXIT=0")
        let after = try terminated.capture(history: true)
        #expect(after.contains("exit signal(15)"))
        #expect(after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).contains("icanon"))
        #expect(try terminated.format("#{alternate_on}") == "0")
        #expect(try terminated.format("#{cursor_flag}") == "1")
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
