import CNcursesw
import Glibc
import Monitor

/// Why `MonitorLoop.run` returned.
public enum MonitorExit: Equatable, Sendable {
    /// The user pressed q.
    case quit
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived (the signal number).
    case signal(Int32)
    /// `MonitorInbox.requestStop()` was called.
    case stopped
}

/// The monitor's event loop: the one owner of the terminal and of `MonitorState` (htop, btmon).
///
/// Run it on the thread that should own the terminal; it returns when the user quits, on SIGINT,
/// SIGTERM, SIGHUP or SIGQUIT, or on `requestStop`, always after restoring the terminal. Data arrives through
/// `MonitorInbox` from any thread; commands for the source side go to `onCommand`, called on the loop
/// thread (keep it short: forward to your own queue). Frames are drawn only when something changed and
/// at most `maximumFramesPerSecond` times a second.
///
/// Wiring, as `beacontop monitor` would do it:
///
/// ```swift
/// let inbox = MonitorInbox()
/// source.onUpdate = { ranging in inbox.post(MonitorSnapshot(adapting: ranging)) }   // any thread
/// var loop = MonitorLoop(initial: firstSnapshot, inbox: inbox,
///                        noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"])
/// let exit = try loop.run { command in controlQueue.async { source.perform(command) } }
/// ```
///
/// `run` throws `TerminalError` when stdin/stdout is not a terminal; the terminal is untouched then.
public struct MonitorLoop {
    public static let maximumFramesPerSecond = 10
    /// Idle wake-up period: catches a resize signal that arrived outside `poll`.
    static let idleWakeMilliseconds: Int32 = 250

    public let inbox: MonitorInbox
    private var state: MonitorState
    private let noColorVariable: String?

    /// `noColorVariable` is the NO_COLOR environment variable's value (nil when unset).
    public init(initial: MonitorSnapshot, inbox: MonitorInbox, keyMap: KeyMap = .standard, noColorVariable: String?) {
        self.inbox = inbox
        self.state = MonitorState(snapshot: initial, keyMap: keyMap)
        self.noColorVariable = noColorVariable
    }

    public mutating func run(onCommand: (MonitorCommand) -> Void) throws -> MonitorExit {
        cnc_install_signal_handlers(inbox.wakeWrite)
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(noColorVariable: noColorVariable)
        } catch {
            cnc_remove_signal_handlers()
            throw error
        }
        defer {
            terminal.stop()
            cnc_remove_signal_handlers()
        }
        let size = terminal.size
        state.screenSize = (size.columns, size.lines)
        let frameInterval = Duration.milliseconds(1000 / Self.maximumFramesPerSecond)
        let clock = ContinuousClock()
        var lastDraw = clock.now - frameInterval
        var dirty = true

        while true {
            var timeout = Self.idleWakeMilliseconds
            if dirty {
                let wait = (lastDraw + frameInterval) - clock.now
                timeout = max(0, Int32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000))
            }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, timeout)
            inbox.drainWakeups()

            let signal = cnc_pending_signal()
            if signal != 0 { return .signal(signal) }
            if inbox.isStopRequested { return .stopped }

            while let key = terminal.readKey() {
                if key == .resize {
                    let size = terminal.size
                    state.screenSize = (size.columns, size.lines)
                }
                let (reaction, command) = state.handle(key)
                if let command { onCommand(command) }
                if reaction.contains(.quit) { return .quit }
                if reaction.contains(.fullRepaint) { terminal.invalidate() }
                if reaction.contains(.redraw) { dirty = true }
            }
            if let snapshot = inbox.take(), state.update(snapshot).contains(.redraw) { dirty = true }

            if dirty && clock.now >= lastDraw + frameInterval {
                let size = terminal.size
                terminal.draw(render(state.viewModel(), size: size, charset: terminal.charset))
                lastDraw = clock.now
                dirty = false
            }
        }
    }
}
