import Glibc
import PrintableText

/// Standard output through one 64 KiB buffer: a million NDJSON lines in a handful of write(2)s,
/// where `print` would lock and flush per line. Errors go straight to standard error.
struct BufferedStandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 17) }

    mutating func write(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(_ text: String) { write(Array(text.utf8)) }

    mutating func flush() {
        var done = 0
        while done < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + done, $0.count - done) }
            if written < 0 { if errno == EINTR { continue }; break }
            done += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to standard output; false when it is closed (EPIPE: SIGPIPE is ignored,
    /// `StopSignal`) or fails otherwise, so a live scan can stop and disable scanning.
    static func writeAll(_ bytes: ArraySlice<UInt8>) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += written
        }
        return true
    }

    /// One line on standard error. Every message goes through here: it may quote a file name, a
    /// catalog or script value, or text from the air, so escapes print visibly, never raw.
    static func error(_ line: String) {
        let bytes = Array((PrintableText.line(line) + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress!, $0.count) }
    }
}
