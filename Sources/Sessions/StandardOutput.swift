import Glibc

/// Standard output through one 64 KiB buffer: a million NDJSON lines in a handful of write(2)s,
/// where `print` would lock and flush per line. The one writer of the headless commands' output;
/// `flush()` after a live packet's line, so a pipe reader sees it at once.
///
/// Once a write fails (the reader went away: `scan | head`) the output is `closed`: later writes are
/// dropped, and a live scan stops and disables scanning instead of dying of SIGPIPE.
public struct StandardOutput {
    private var buffer: [UInt8] = []
    private let descriptor: Int32
    /// A write failed (EPIPE, or any other error): nothing more is written.
    public private(set) var closed = false

    /// Writes to `descriptor` (standard output unless a test gives another).
    public init(descriptor: Int32 = STDOUT_FILENO) {
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
        if !closed, !StandardError.writeAll(buffer, to: descriptor) { closed = true }
        buffer.removeAll(keepingCapacity: true)
    }
}
