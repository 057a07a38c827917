/// Why a capture file could not be read (further): what went wrong, where, in words a person can act on.
///
/// `malformedRecord` is recoverable: the reader skips that one record and `next()` carries on with
/// the following one. Every other case ends the file: `next()` returns nil afterwards.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// open(2) failed (no such file, permission denied, ...).
    case cannotOpen(path: String, reason: String)
    /// read(2) failed part-way through the file.
    case readFailed(path: String, offset: Int, reason: String)
    /// The first bytes match no format this reader knows.
    case unknownFormat(path: String, magic: String)
    /// A known container holding something this reader does not decode (a btsnoop datalink,
    /// a pcap link type, a format version).
    case unsupported(path: String, what: String)
    /// A header field holds an impossible value (a record length over 64 KiB, a block length that
    /// is not a multiple of 4, ...). The records after it cannot be found again.
    case corrupt(path: String, field: String, offset: Int, reason: String)
    /// open(2) or write(2) of a capture being written failed (disk full, permission denied, ...).
    case writeFailed(path: String, reason: String)
    /// A recording's file exists and holds bytes: it is never written over (`RecordingFileCreation`).
    case outputExists(path: String, bytes: Int)
    /// One record's contents are unusable (unknown H4 indicator, interface id out of range);
    /// the framing around it is intact, so reading continues.
    case malformedRecord(path: String, offset: Int, reason: String)
    /// An advertising report (or a link-layer packet) the capture's snap length cut: `captured` of
    /// its `original` bytes are in the file (tcpdump `-s`, a pcapng interface's `if_snaplen`).
    /// Skipped and reading goes on, as a malformed record, but counted apart: the file is not
    /// damaged, the capture was set to keep less (it read "parameter length says 39, 27 present").
    case cutBySnapLength(path: String, offset: Int, captured: Int, original: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "\(path): cannot open: \(reason)"
        case .readFailed(let path, let offset, let reason):
            "\(path): read failed at byte \(offset): \(reason)"
        case .unknownFormat(let path, let magic):
            "\(path): not a btsnoop, pcap or pcapng file (first bytes \(magic))"
        case .unsupported(let path, let what):
            "\(path): unsupported: \(what)"
        case .corrupt(let path, let field, let offset, let reason):
            "\(path): corrupt \(field) at byte \(offset): \(reason)"
        case .malformedRecord(let path, let offset, let reason):
            "\(path): malformed record at byte \(offset): \(reason)"
        case .cutBySnapLength(let path, let offset, let captured, let original):
            "\(path): record at byte \(offset) cut by the capture's snap length (\(captured) of \(original) bytes captured); skipped"
        case .writeFailed(let path, let reason):
            "\(path): cannot write: \(reason)"
        case .outputExists(let path, let bytes):
            "\(path) already holds \(bytes) bytes: a recording never writes over a file; choose another name"
        }
    }

    /// True for errors after which `next()` can go on reading.
    public var isRecoverable: Bool {
        switch self {
        case .malformedRecord, .cutBySnapLength: true
        default: false
        }
    }
}

/// A file that ends part-way through a record: what was being read and where it started.
///
/// This is the normal state of a capture whose writer was killed, or of a log copied while still
/// being written, so the reader returns every whole record first and reports this as a warning.
public struct CaptureTruncation: Sendable, Equatable, CustomStringConvertible {
    /// What was cut: "btsnoop record", "pcapng Enhanced Packet Block", ...
    public var what: String
    /// File offset of the first byte of the torn record.
    public var offset: Int
    /// Bytes the record needed and bytes the file still had.
    public var needed: Int
    public var present: Int

    public init(what: String, offset: Int, needed: Int, present: Int) {
        self.what = what
        self.offset = offset
        self.needed = needed
        self.present = present
    }

    public var description: String {
        "file ends inside a \(what) at byte \(offset) (\(present) of \(needed) bytes present)"
    }
}
