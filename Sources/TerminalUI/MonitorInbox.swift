import Glibc
import Monitor
import Synchronization

/// The hand-over point between the data side and the loop thread: any thread posts the newest
/// `MonitorSnapshot` (latest wins, so a slow terminal never builds a backlog), and a byte on a
/// self-pipe wakes the loop's `poll` at once instead of it polling on a timer.
public final class MonitorInbox: Sendable {
    private let pending = Mutex<MonitorSnapshot?>(nil)
    private let stopRequested = Atomic<Bool>(false)
    /// The self-pipe: [read end, write end], both non-blocking.
    let wakeRead: Int32
    let wakeWrite: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Hands a new snapshot to the loop; replaces one not yet drawn.
    public func post(_ snapshot: MonitorSnapshot) {
        pending.withLock { $0 = snapshot }
        wake()
    }

    /// Asks the loop to return (for example when a replay ended and the caller wants to exit).
    public func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// The newest snapshot since the last call, if any.
    func take() -> MonitorSnapshot? {
        pending.withLock { value in
            defer { value = nil }
            return value
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        // EAGAIN means the pipe is full: the loop is already due to wake, nothing is lost.
        _ = write(wakeWrite, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drainWakeups() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &scratch, scratch.count) > 0 {}
    }
}
