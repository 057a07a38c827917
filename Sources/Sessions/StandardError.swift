import Glibc

/// Standard error, one whole line per write(2) so lines from two threads never interleave: the
/// one writer of warnings, summaries and start-up failures.
public enum StandardError {
    /// Writes `line` and a newline.
    public static func line(_ line: String) {
        writeAll(Array((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// `beacontop: message`, the form every message to a person takes.
    public static func report(_ message: String) {
        line("beacontop: \(message)")
    }

    /// Writes every byte, going on after EINTR; stops at any other error (a closed pipe).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 { if errno == EINTR { continue }; return }
            done += written
        }
    }
}
