import Foundation
import Glibc

/// A command running in a detached tmux session of a given size, for real-terminal tests: send keys,
/// read the screen with `capture-pane`, check terminal modes, then kill the session.
///
/// Each session uses its own tmux server socket (`tmux -L`), so tests never touch a user's tmux and
/// parallel tests do not share a server. The pane stays after the command exits (`remain-on-exit`),
/// but tmux 3.3 does not always reap a command that exits at once, so tests that need the exit status
/// wrap the command (`sh -c 'cmd; echo EXIT=$?; sleep 60'`) and wait for the text.
public final class TmuxSession {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let name: String
    private let socket: String

    /// True when a `tmux` binary is on the PATH.
    public static var isAvailable: Bool {
        (try? run(["tmux", "-V"]))?.status == 0
    }

    /// Starts `command` (run with `exec` by `sh -c`, so the pane's process is the command itself).
    public init(command: String, columns: Int, lines: Int, environment: [String: String] = [:]) throws {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        name = "bt-\(id)"
        socket = "beacontop-test-\(id)"
        let exports = environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // remain-on-exit is set just after the session starts; the short sleep keeps even a command
        // that fails at once from exiting before it, so its last screen and status stay readable.
        let shell = "sleep 0.2; \(exports.isEmpty ? "" : "export \(exports); ")exec \(command)"
        // The server forked by new-session outlives it; Foundation's Process would wait for the server
        // too (it inherits the descriptor Process watches), so this one call is a plain spawn + waitpid.
        let status = Self.spawn(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", name,
                                 "-x", "\(columns)", "-y", "\(lines)", shell])
        guard status == 0 else { throw Failure(description: "tmux new-session failed (status \(status))") }
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    deinit { kill() }

    /// Sends tmux key names (`"s"`, `"Down"`, `"Enter"`, `"Escape"`, `"C-c"`).
    public func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Sends raw bytes, as a terminal would, without tmux translating them (`send-keys -H`).
    public func sendBytes(_ bytes: [UInt8]) throws {
        try tmux(["send-keys", "-t", name, "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// The pane's visible text, one line per row; with `history`, the scrolled-off lines too; with
    /// `escapes`, the SGR sequences for colours and attributes as well.
    public func capture(history: Bool = false, escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (history ? ["-S", "-"] : []) + (escapes ? ["-e"] : []))
    }

    /// A tmux format value for the pane (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`, `#{pane_dead}`).
    public func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen every 50 ms until `predicate` holds; throws with the last screen after `timeout`
    /// seconds. This is synchronisation with another process, not a speed assertion.
    @discardableResult
    public func waitFor(timeout: Double = 10, _ what: String, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while Date() < deadline {
            screen = try capture()
            if predicate(screen) { return screen }
            usleep(50_000)
        }
        throw Failure(description: "timed out waiting for \(what); screen:\n\(screen)")
    }

    /// Waits until the screen, or the scrollback above it, contains `text`. (A full-screen program's
    /// alternate screen has no scrollback, so only the current screen can match while it runs.)
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while Date() < deadline {
            screen = try capture(history: true)
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        throw Failure(description: "timed out waiting for \"\(text)\"; screen:\n\(screen)")
    }

    /// The process ids of the pane process's children (from `/proc`, Linux): with a `sh -c` wrapper,
    /// the command under test, so a test can signal exactly the process it started.
    public func childProcessIDs() throws -> [Int32] {
        let pid = try format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return children.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Resizes the window (the command sees SIGWINCH, ncurses turns it into KEY_RESIZE).
    public func resize(columns: Int, lines: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(lines)"])
    }

    /// Ends the session and its server.
    public func kill() {
        _ = try? Self.run(["tmux", "-L", socket, "kill-server"])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Self.run(["tmux", "-L", socket] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)")
        }
        return result.output
    }

    /// Runs a program found on the PATH and returns its exit status (-1 if it could not start).
    /// Runs to completion. The tmux server (and so the command) would inherit this thread's signal
    /// mask, and test threads block SIGINT, SIGTERM and SIGWINCH: `CleanSpawn` starts it clean.
    private static func spawn(_ arguments: [String]) -> Int32 {
        guard let pid = CleanSpawn.start(arguments) else { return -1 }
        return CleanSpawn.wait(pid)
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
