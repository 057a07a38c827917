import Glibc

/// A self-pipe (both ends non-blocking, close-on-exec): one thread writes a byte to wake another
/// that waits in `poll` on `readEnd`. The inbox wakes its consumer this way, and the monitor's
/// signal handlers wake its loop.
public final class WakePipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

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
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { Glibc.close(readEnd) }
        if writeEnd >= 0 { Glibc.close(writeEnd) }
    }

    /// Wakes the reader. EAGAIN means the pipe is full: the reader is already due to wake.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    public func drain() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &scratch, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
