import Glibc

/// Standard output through one 64 KiB buffer: a million NDJSON lines in a handful of write(2)s,
/// where `print` would lock and flush per line. The one writer of the headless commands' output;
/// `flush()` after a live packet's line, so a pipe reader sees it at once.
///
/// Once a write fails (the reader went away: `scan | head`) the output is `closed`: later writes are
/// dropped, and a live scan stops and disables scanning instead of dying of SIGPIPE. A failure other
/// than a closed pipe (a full disk, /dev/full, EIO) lost lines: `problem` says so, and the commands
/// report it and exit 1 rather than 0 (docs/robustness.md).
public struct StandardOutput {
    private var buffer: [UInt8] = []
    private let descriptor: Int32
    /// The errno of the first failed write (EPIPE, ENOSPC, ...): nothing more is written.
    public private(set) var failure: Int32?
    /// A write failed: nothing more is written.
    public var closed: Bool { failure != nil }
    /// Asked while a write waits for a reader: true once the run was told to stop (a signal,
    /// `--duration`). Nil: a write waits for the reader as long as it takes (a replay to its end).
    private let stopped: (@Sendable () -> Bool)?
    /// The run was stopped while its reader had stopped reading (a full pipe nobody drains): the
    /// lines not yet written were dropped, so the stop could end the run.
    public private(set) var abandoned = false

    /// What went wrong, unless nothing did or the reader merely went away (EPIPE: `replay | head`
    /// wanted no more, which is no error).
    public var problem: String? {
        if abandoned {
            return "standard output: its reader stopped reading; the lines not yet written when the run was stopped were dropped, so the output is incomplete"
        }
        guard let failure, failure != EPIPE else { return nil }
        return "standard output: write failed: \(String(cString: strerror(failure))); the output is incomplete"
    }

    /// Writes to `descriptor` (standard output unless a test gives another).
    /// Ignores SIGPIPE from now on, so a reader that went away is a failed write (EPIPE), not death
    /// by signal halfway through a line (`replay --json | head -1` exited 141).
    /// With `stopped`, a write that waits for a reader gives up once the run was stopped and the
    /// reader took nothing for `stalledWriteLimit` seconds: `scan | consumer` with a consumer that
    /// stopped reading (hung, or a paused terminal) ignored SIGTERM, SIGINT and `--duration`, its
    /// write(2) blocked until the consumer read again or exited.
    public init(descriptor: Int32 = STDOUT_FILENO, stopped: (@Sendable () -> Bool)? = nil) {
        signal(SIGPIPE, SIG_IGN)
        self.descriptor = descriptor
        self.stopped = stopped
        buffer.reserveCapacity(1 << 17)
    }

    public mutating func write(_ bytes: some Collection<UInt8>) {
        guard !closed else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public mutating func write(_ text: String) { write(text.utf8) }

    public mutating func flush() {
        guard !buffer.isEmpty else { return }
        if !closed {
            if let stopped {
                writeUnlessStalled(stopped: stopped)
            } else if let error = StandardError.writeAll(buffer, to: descriptor) {
                failure = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Seconds a stopped run waits for a reader that takes nothing before dropping the rest.
    static let stalledWriteLimit = 1.0

    /// Writes the buffer at most `PIPE_BUF` bytes at a time, each once poll(2) says the descriptor
    /// takes it, so no write blocks longer than a poll: a blocking write of 64 KiB waits for the
    /// reader to take all of it. Stops at a failure, or once `stopped` and the reader took nothing
    /// for `stalledWriteLimit` (a reader that reads, however slowly, gets everything).
    private mutating func writeUnlessStalled(stopped: @Sendable () -> Bool) {
        let pollMilliseconds: Int32 = 100
        let stalledPolls = Int(Self.stalledWriteLimit * 1000) / Int(pollMilliseconds)
        var done = 0
        var idlePolls = 0
        while done < buffer.count {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, pollMilliseconds)
            if ready < 0, errno != EINTR {
                failure = errno
                return
            }
            if ready <= 0 {
                if stopped() { idlePolls += 1 } else { idlePolls = 0 }
                if idlePolls >= stalledPolls {
                    abandoned = true
                    failure = EAGAIN
                    return
                }
                continue
            }
            // Whole lines where they fit: a pipe takes up to PIPE_BUF bytes whole, so a reader
            // dropped at a stop is left no cut line, unless one line is longer than that.
            var chunk = min(buffer.count - done, Int(PIPE_BUF))
            if done + chunk < buffer.count, let end = buffer[done..<(done + chunk)].lastIndex(of: UInt8(ascii: "\n")) {
                chunk = end + 1 - done
            }
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, chunk) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                failure = errno
                return
            }
            done += written
            idlePolls = 0
        }
    }

    /// Flushes, then asks the descriptor, without writing, whether its reader went away (a pipe
    /// or socket whose other end closed polls POLLERR or POLLHUP); if so the output is `closed`
    /// as after an EPIPE. A command that may write nothing for ever (`scan FILE --loop` over a
    /// capture with no beacon) asks this once a pass: it never wrote, so never saw the EPIPE, and
    /// spun on after `| head` had left. A file or terminal never polls either.
    public mutating func checkReaderGone() {
        flush()
        guard !closed else { return }
        var entry = pollfd(fd: descriptor, events: 0, revents: 0)
        if poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLERR | POLLHUP) != 0 { failure = EPIPE }
    }
}
