#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a recording (`--record`, the monitor's `r`) opens its file: it never writes over one.
///
/// `--record FILE` opened with O_TRUNC, so `monitor old.btsnoop --record old.btsnoop` (before the
/// input guard) or a second session given the same name destroyed a recording. The file is created
/// with O_EXCL, so no race between a check and the open can truncate either. An existing file that
/// holds nothing (`mktemp`'s, `touch`'s, `/dev/null`) is still taken, without truncating.
public enum RecordingFileCreation {
    /// Why `path` must not be recorded to (it exists and holds bytes), or nil; the words the
    /// commands print at start, before anything opens (`already holds N bytes`).
    public static func refusal(path: String, flag: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, holdsBytes(info) else { return nil }
        return "\(flag) \(CaptureError.outputExists(path: path, bytes: Int(info.st_size)))"
    }

    /// Opens `path` for writing a new recording: created, or taken when it exists and holds no
    /// bytes; `replacing` (the simulator's and the benchmarks' outputs) truncates as before.
    public static func open(path: String, replacing: Bool = false) throws(CaptureError) -> Int32 {
        if replacing {
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
            return descriptor
        }
        let created = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if created >= 0 { return created }
        guard errno == EEXIST else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        let existing = Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard existing >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        if fstat(existing, &info) != 0 || holdsBytes(info) {
            close(existing)
            throw .outputExists(path: path, bytes: Int(info.st_size))
        }
        return existing
    }

    /// Whether `path` exists: asked before a recording opens it, so that `discard` knows whether
    /// the file was the recording's own.
    public static func exists(path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Undoes a recording that never became one (its run failed at start-up): deletes the file it
    /// created, or empties again the empty regular file it was given (`mktemp`'s); a device or FIFO
    /// (`/dev/null`) is left alone. Left behind, its header made the same command, run again once
    /// the cause was fixed, refuse the name (`already holds 16 bytes`).
    public static func discard(path: String, created: Bool) {
        if created {
            unlink(path)
            return
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { _ = truncate(path, 0) }
    }

    /// A regular file with bytes in it: a device or a FIFO (`/dev/null`) holds none to lose.
    private static func holdsBytes(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }
}
