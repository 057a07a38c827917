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

    /// What went wrong, unless nothing did or the reader merely went away (EPIPE: `replay | head`
    /// wanted no more, which is no error).
    public var problem: String? {
        guard let failure, failure != EPIPE else { return nil }
        return "standard output: write failed: \(String(cString: strerror(failure))); the output is incomplete"
    }

    /// Writes to `descriptor` (standard output unless a test gives another).
    /// Ignores SIGPIPE from now on, so a reader that went away is a failed write (EPIPE), not death
    /// by signal halfway through a line (`replay --json | head -1` exited 141).
    public init(descriptor: Int32 = STDOUT_FILENO) {
        signal(SIGPIPE, SIG_IGN)
        self.descriptor = descriptor
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
        if !closed, let error = StandardError.writeAll(buffer, to: descriptor) { failure = error }
        buffer.removeAll(keepingCapacity: true)
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
