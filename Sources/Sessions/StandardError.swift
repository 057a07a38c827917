import Glibc
import PrintableText

/// Standard error, one whole line per write(2) so lines from two threads never interleave: the
/// one writer of warnings, summaries and start-up failures. Every message may quote a file name, a
/// catalog or script value, or text from the air, so each line goes through `PrintableText.line`:
/// escapes print visibly, never raw (docs/robustness.md).
public enum StandardError {
    /// Writes `line`, made printable, and a newline.
    public static func line(_ line: String) {
        writeAll(Array((PrintableText.line(line) + "\n").utf8), to: STDERR_FILENO)
    }

    /// `beacontop: message`, the form every message to a person takes.
    public static func report(_ message: String) {
        line("beacontop: \(message)")
    }

    /// Writes every byte, going on after EINTR; nil when done, else the errno of the failure (a
    /// closed pipe: SIGPIPE is ignored, `StopSignal`, so the write fails with EPIPE instead of
    /// killing the process).
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += written
        }
        return nil
    }
}
