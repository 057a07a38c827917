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
public enum WholeFileWriter {
    public static func write(_ text: String, to path: String) throws(FileWriteError) {
        let temporary = path + ".beacontop-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
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
        guard rename(temporary, path) == 0 else { throw failure(closing: false) }
    }
}
