import HCI

/// The live source's timings: when a lost controller is tried again, when a refused restart is, and
/// when a command's answer is given up on.
extension LiveSource {
    /// Runs `action` once `seconds` have passed: each command's timeout (a test runs them by hand).
    public typealias CommandTimer = @Sendable (_ seconds: Double, _ action: @escaping @Sendable () -> Void) -> Void

    /// The command timeout's timer: a task that sleeps.
    public static let sleepingTimer: CommandTimer = { seconds, action in
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            action()
        }
    }

    /// A lost controller is tried again 0.5 s after the loss, then every second: a dongle plugged back
    /// in, or a controller restarted, is scanning again within about a second. It waited up to 10 s
    /// (0.5 s doubling): a controller back 8 s after the loss was opened at 15.5 s. An attempt is one
    /// failed open (socket and bind, open(2), a refused connect), and the reading thread wakes every
    /// 0.1 s anyway to see whether it was stopped. The monitor's event log keeps one line for
    /// attempts failing for the same reason, and `scan` says each reason once.
    public static let reconnects = ReconnectBackoff(initial: 0.5, maximum: 1)

    /// A refused restart is tried again after `restartBackoff`'s delays: 1, 2, 4, 8, 16 s, then every 30 s.
    public static let restartRetries = ReconnectBackoff(initial: 1, maximum: 30)
}
