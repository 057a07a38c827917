import PacketSources
import Synchronization

/// Wakes the monitor's loop from outside it: the signal handlers write to its pipe (so SIGINT or
/// SIGTERM ends `poll` at once), and so does `requestStop()` from any thread. The loop polls it
/// beside the terminal and the source's inbox.
public final class MonitorWakeup: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    let pipe = WakePipe()

    public init() {}

    /// Asks the loop to return (`MonitorExit.stopped`), from any thread.
    public func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        pipe.wake()
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }
}
