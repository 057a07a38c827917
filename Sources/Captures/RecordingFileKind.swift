#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a recording's path names, checked with stat(2) before anything opens it.
///
/// A replay reads its file more than once: its first bytes to tell a capture from a script or a
/// venue recording, then the records, its length on a thread of its own, and again for each seek
/// back or loop. A FIFO breaks every one of those: open(2) on one with no writer blocks for ever
/// (`monitor`, `replay`, `report` and `decode` hung before saying anything), and with a writer
/// the first look ate the bytes the reader then missed (`not a btsnoop ... file (first bytes
/// fff983f3...)`, the middle of a record). A terminal or another character device blocks the
/// same way. So only a regular file (or a block device) is read; anything else is refused in words.
public enum RecordingFileKind {
    /// Why `path` cannot be read as a recording, or nil when it may be opened (a regular file, a
    /// block device, or a path stat(2) cannot follow: opening it then says why, as it always did).
    public static func refusal(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFBLK:
            return nil
        case S_IFDIR:
            return "a directory, not a capture file"
        case S_IFIFO:
            return "a pipe (FIFO), not a file: a recording is read more than once (its format, its length, "
                + "again to seek back); save it to a file first"
        case S_IFSOCK:
            return "a socket, not a file (a controller's H4 socket is the source unix:\(path))"
        default:
            return "a device, not a file: save the recording to a file first"
        }
    }

    /// True when `path` may be opened and read as a recording (`refusal` is nil): the looks of a
    /// file's first bytes are only taken from such a file, so looking never blocks.
    public static func isReadable(path: String) -> Bool { refusal(path: path) == nil }
}
