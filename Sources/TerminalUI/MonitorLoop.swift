import CNcursesw
import Glibc
import Monitor
import PacketSources

/// Why `MonitorLoop.run` returned.
public enum MonitorExit: Equatable, Sendable {
    /// The user pressed q.
    case quit
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived (the signal number).
    case signal(Int32)
    /// `MonitorWakeup.requestStop()` was called.
    case stopped
    /// The terminal hung up (its window or SSH session closed) and no SIGHUP reached the process.
    case terminalClosed
}

/// The monitor's event loop: the one owner of the terminal, the app state (`MonitorState`) and the
/// data side (`MonitorSession`: feed, ranging, recording and replay controls), as htop, gitui and
/// btmon have one loop. Sources run on threads of their own and hand over `Sendable` batches through
/// the session's bounded inbox; nothing else crosses threads.
///
/// The loop waits in `poll` on the terminal, the inbox and its wake-up pipe, with the time to the
/// next tick as the timeout: three times a second (`MonitorSession.snapshotsPerSecond`) it takes
/// what arrived, ticks the ranging and draws if anything changed (at most `maximumFramesPerSecond`).
/// A key is handled at once; a command it makes goes to the session and shows in the same frame.
/// Run it on the thread that should own the terminal; it returns when the user quits, on SIGINT,
/// SIGTERM, SIGHUP or SIGQUIT, on `requestStop`, or when the terminal hangs up, always after
/// restoring the terminal. It throws `TerminalError` when stdin/stdout is not a terminal; the
/// terminal is untouched then.
public struct MonitorLoop {
    public static let maximumFramesPerSecond = 10

    public let wakeup = MonitorWakeup()
    public private(set) var session: MonitorSession
    private var state: MonitorState
    private let noColorVariable: String?
    private let now: () -> Double

    /// `noColorVariable` is the NO_COLOR environment variable's value (nil when unset).
    public init(
        session: MonitorSession, keyMap: KeyMap = .standard, noColorVariable: String?,
        now: @escaping () -> Double = SourceInbox.wallClock
    ) {
        var session = session
        self.state = MonitorState(snapshot: session.initialSnapshot(), keyMap: keyMap)
        self.session = session
        self.noColorVariable = noColorVariable
        self.now = now
    }

    public mutating func run() throws -> MonitorExit {
        try CursesTerminal.owning(wakeup: wakeup, noColorVariable: noColorVariable) { try loop($0) }
    }

    private mutating func loop(_ terminal: CursesTerminal) throws -> MonitorExit {
        let size = terminal.size
        state.screenSize = (size.columns, size.lines)
        let tickInterval = 1 / MonitorSession.snapshotsPerSecond
        let frameInterval = 1 / Double(Self.maximumFramesPerSecond)
        var nextTick = now()
        var lastDraw = -Double.infinity
        var dirty = true

        while true {
            var wait = nextTick - now()
            if dirty { wait = min(wait, lastDraw + frameInterval - now()) }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeup.pipe.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: session.inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 3, Int32(max(0, (wait * 1000).rounded(.up))))
            wakeup.pipe.drain()

            let signal = cnc_pending_signal()
            if signal != 0 { return .signal(signal) }
            if wakeup.isStopRequested { return .stopped }
            if CursesTerminal.hungUp(fds[0]) { return .terminalClosed }

            var refresh = false
            while let key = terminal.readKey() {
                if key == .resize {
                    let size = terminal.size
                    state.screenSize = (size.columns, size.lines)
                }
                let (reaction, command) = state.handle(key)
                if let command {
                    session.handle(command)
                    refresh = true
                }
                if reaction.contains(.quit) { return .quit }
                if reaction.contains(.fullRepaint) { terminal.invalidate() }
                if reaction.contains(.redraw) { dirty = true }
            }
            // The inbox woke the loop before a tick: enough has piled up to take now.
            if fds[2].revents & Int16(POLLIN) != 0 { session.drain() }

            let time = now()
            if refresh || time >= nextTick {
                session.drain()
                if state.update(session.snapshot(now: time)).contains(.redraw) { dirty = true }
                if time >= nextTick {
                    nextTick += tickInterval
                    // Late (a slow terminal, a stopped process): carry on from now, no burst of ticks.
                    if nextTick <= time { nextTick = time + tickInterval }
                }
            }
            if dirty && now() >= lastDraw + frameInterval {
                let size = terminal.size
                let frame = render(state.viewModel(), size: size, charset: terminal.charset)
                terminal.draw(frame)
                // How far this screen scrolls is known once it is laid out (wrapped to this width).
                state.drawn(frame)
                lastDraw = now()
                dirty = false
            }
        }
    }
}
