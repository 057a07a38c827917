#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a recording puts one record (a btsnoop record, a venue recording's line) into its file:
/// whole, in one write(2) when the kernel takes it, with no userspace buffer across records, so a
/// process killed even with SIGKILL leaves every record written before.
public enum RecordingWrite {
    /// Writes `bytes` at the end of `descriptor`. A write a full disk takes only part of (it takes
    /// what fits, then refuses the rest) is cut off the file again before the error is thrown, so
    /// a recording stopped by a write error ends on its last whole record: left there, tshark
    /// refused a btsnoop file (`cut short in the middle of a packet`, status 2) and a venue
    /// recording ended on half a line.
    public static func whole(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(CaptureError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                if done > 0 { cutOff(done, from: descriptor) }
                throw .writeFailed(path: path, reason: reason)
            }
            done += written
        }
    }

    /// Takes the last `bytes` (a record's start) off the file again.
    private static func cutOff(_ bytes: Int, from descriptor: Int32) {
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= bytes, ftruncate(descriptor, end - off_t(bytes)) == 0 else { return }
        lseek(descriptor, end - off_t(bytes), SEEK_SET)
    }
}
