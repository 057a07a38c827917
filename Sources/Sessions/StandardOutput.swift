import Glibc

/// Standard output through one 64 KiB buffer: a million NDJSON lines in a handful of write(2)s,
/// where `print` would lock and flush per line. The one writer of the headless commands' output;
/// `flush()` after a live packet's line, so a pipe reader sees it at once.
public struct StandardOutput {
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    /// Writes to `descriptor` (standard output unless a test gives another).
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 17)
    }

    public mutating func write(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public mutating func write(_ text: String) { write(text.utf8) }

    public mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardError.writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
    }
}
