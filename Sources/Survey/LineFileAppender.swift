#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends whole lines to a file, each in one write(2) with O_APPEND and no userspace buffer, as
/// `BTSnoopWriter` writes records: a survey sample or a CSV row is on disk as soon as it is
/// written, and a killed process leaves at most one cut line, never a half-overwritten file.
public final class LineFileAppender: @unchecked Sendable {
    public enum Mode: Sendable {
        /// A new file; an existing one is an error (a survey is never overwritten by accident).
        case create
        /// A new file, or an existing one truncated (an export the user asked for by name).
        case replace
        /// An existing file, appended to (resuming a survey).
        case append
    }

    public let path: String
    // Only the owner writes; the descriptor is never shared across threads.
    private let descriptor: Int32

    public init(path: String, mode: Mode) throws(SurveyFileError) {
        let flags: Int32 = switch mode {
        case .create: O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC
        case .replace: O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC
        case .append: O_RDWR | O_APPEND | O_CLOEXEC
        }
        let opened = open(path, flags, 0o644)
        guard opened >= 0 else {
            let reason = errno == EEXIST ? "already exists: resume it, or choose another name" : String(cString: strerror(errno))
            throw SurveyFileError(path: path, reason: reason)
        }
        self.path = path
        descriptor = opened
        if mode == .append { try endWithNewline() }
    }

    deinit { close(descriptor) }

    /// Opens `path` and writes `header` first. When the header cannot be written (a full disk at
    /// the start), the file it left empty is removed: no empty export is left behind, and no empty
    /// survey file that the next try would take for a survey already there.
    public static func starting(path: String, mode: Mode, header: String) throws(SurveyFileError) -> LineFileAppender {
        let file = try LineFileAppender(path: path, mode: mode)
        do { try file.write(header) } catch {
            file.removeIfEmpty()
            throw error
        }
        return file
    }

    /// Removes the file when it is a regular file, empty, and still the one at `path` (never a
    /// device such as /dev/full, nor a file put there since).
    private func removeIfEmpty() {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG, opened.st_size == 0,
              stat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev else { return }
        unlink(path)
    }

    /// Writes `line`, which should end with a newline, in one call. All or nothing: a write that
    /// fails part way (a full disk takes what fits, then refuses the rest) is cut off the file
    /// again, so the next line never lands after half a line and the file still loads.
    public func write(_ line: String) throws(SurveyFileError) {
        let bytes = Array(line.utf8)
        let start = lseek(descriptor, 0, SEEK_END)
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = "cannot write: \(String(cString: strerror(errno)))"
                guard done > 0 else { throw SurveyFileError(path: path, reason: reason) }
                guard start >= 0, ftruncate(descriptor, start) == 0 else {
                    throw SurveyFileError(path: path, reason: reason + " (a cut line is left at its end)")
                }
                throw SurveyFileError(path: path, reason: reason)
            }
            done += written
        }
    }

    /// A hand-edited file may lack its final newline: add one, so the next line starts a line.
    private func endWithNewline() throws(SurveyFileError) {
        let size = lseek(descriptor, 0, SEEK_END)
        guard size > 0 else { return }
        var last: UInt8 = 0
        guard pread(descriptor, &last, 1, size - 1) == 1 else {
            throw SurveyFileError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        if last != 0x0A { try write("\n") }
    }
}
