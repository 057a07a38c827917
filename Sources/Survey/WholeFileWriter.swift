#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be written: the path and the system's reason ("No space left on device"),
/// where Foundation's `Data.write` gives a dump of its user info or, for some errors, only
/// "NSCocoaErrorDomain error 512".
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cannot write \(path): \(reason)" }
}

/// Replaces a file whole or not at all (a catalog the calibration wizard edits, a survey report's
/// map): the text goes to a temporary file beside it, is flushed, then renamed over it, so a
/// failure part way leaves the old file as it was and no temporary file behind.
///
/// An existing file keeps what the rename would otherwise lose: a symbolic link stays a link (the
/// file it names is replaced, beside itself), and the file keeps its permission bits (a catalog
/// shared 0664 with a group, or kept 0600), where a new file is 0644 less the umask.
public enum WholeFileWriter {
    public static func write(_ text: String, to path: String) throws(FileWriteError) {
        let target = resolved(path)
        let temporary = target + ".beacontop-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        var existing = stat()
        if stat(target, &existing) == 0 { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
        func failure(closing: Bool) -> FileWriteError {
            let reason = String(cString: strerror(errno))
            if closing { close(descriptor) }
            unlink(temporary)
            return FileWriteError(path: path, reason: reason)
        }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(closing: true)
            }
            done += written
        }
        guard fsync(descriptor) == 0 else { throw failure(closing: true) }
        guard close(descriptor) == 0 else { throw failure(closing: false) }
        guard rename(temporary, target) == 0 else { throw failure(closing: false) }
    }

    /// The file a path names, through any symbolic links; the path itself when it names nothing yet
    /// (a new file, or a link to a file not there, which the rename then replaces).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
