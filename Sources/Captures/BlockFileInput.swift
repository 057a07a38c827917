#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Closes its descriptor when the last reader holding it goes away.
final class OpenFileDescriptor: Sendable {
    let value: Int32
    init(_ value: Int32) { self.value = value }
    deinit { close(value) }
}

/// A file read front to back through one fixed-size buffer, so memory stays constant whatever
/// the file size: records are parsed in place and handed out as slices of `buffer`.
///
/// `fill(n)` guarantees `n` unread bytes at `start` (reading whole blocks, moving the unread tail
/// to the front first when the buffer end is near) unless the file ends sooner.
///
/// A file already in memory (`init(bytes:name:)`) is the buffer itself, read to its end: the
/// fuzz harnesses hand each input over this way instead of writing it to a file and allocating
/// a 256 KiB buffer per input (docs/fuzzing.md).
struct BlockFileInput: Sendable {
    /// 256 KiB: a few thousand advertising records per read(2), and more than any HCI packet
    /// (at most 1 + 4 + 65535 bytes) plus its record header.
    static let bufferSize = 256 * 1024

    let path: String
    /// nil for bytes handed over in memory: nothing more to read.
    private let file: OpenFileDescriptor?
    private(set) var buffer: [UInt8]
    /// First unread byte in `buffer`.
    var start = 0
    /// One past the last valid byte in `buffer`.
    private(set) var end = 0
    /// File offset of `buffer[0]`.
    private var bufferFileOffset = 0
    private var reachedEndOfFile = false

    init(path: String) throws(CaptureError) {
        if let refusal = RecordingFileKind.refusal(path: path) { throw .cannotOpen(path: path, reason: refusal) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.file = OpenFileDescriptor(descriptor)
        self.buffer = [UInt8](repeating: 0, count: Self.bufferSize)
    }

    init(bytes: [UInt8], name: String) {
        self.path = name
        self.file = nil
        self.buffer = bytes
        self.end = bytes.count
        self.reachedEndOfFile = true
    }

    /// File offset of the next unread byte.
    var offset: Int { bufferFileOffset + start }
    /// Unread bytes already in the buffer.
    var available: Int { end - start }

    /// Makes `count` unread bytes available from `start`; false when the file ends first (the
    /// bytes that exist stay available). `count` must not exceed `bufferSize`.
    @inline(__always)
    mutating func fill(_ count: Int) throws(CaptureError) -> Bool {
        if end - start >= count { return true }
        return try refill(count)
    }

    private mutating func refill(_ count: Int) throws(CaptureError) -> Bool {
        guard let file else { return false }
        precondition(count <= buffer.count, "record larger than the read buffer")
        if start + count > buffer.count {
            let unread = end - start
            buffer.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                memmove(base, base + start, unread)
            }
            bufferFileOffset += start
            start = 0
            end = unread
        }
        while end - start < count && !reachedEndOfFile {
            let descriptor = file.value
            let capacity = buffer.count
            let got = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress! + end, capacity - end)
            }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .readFailed(path: path, offset: bufferFileOffset + end, reason: String(cString: strerror(code)))
            }
            if got == 0 { reachedEndOfFile = true } else { end += got }
        }
        return end - start >= count
    }

    /// Moves to file offset `offset` (a resume point): what the buffer held is dropped.
    mutating func seek(to offset: Int) throws(CaptureError) {
        guard let file else { start = min(offset, end); return }
        guard lseek(file.value, off_t(offset), SEEK_SET) >= 0 else {
            throw .readFailed(path: path, offset: offset, reason: String(cString: strerror(errno)))
        }
        bufferFileOffset = offset
        start = 0
        end = 0
        reachedEndOfFile = false
    }

    /// Consumes `count` bytes, reading and discarding past the buffer when needed (blocks
    /// larger than the buffer that the reader has no use for). False when the file ends first.
    mutating func skip(_ count: Int) throws(CaptureError) -> Bool {
        var remaining = count
        while true {
            let take = min(available, remaining)
            start += take
            remaining -= take
            if remaining == 0 { return true }
            guard try fill(1) else { return false }
        }
    }

    /// Consumes the next `count` bytes and returns a copy of them, however many buffers they span
    /// (a pcapng header block larger than the buffer); nil when the file ends first.
    mutating func take(_ count: Int) throws(CaptureError) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            guard try fill(1) else { return nil }
            let chunk = min(available, count - bytes.count)
            bytes.append(contentsOf: buffer[start..<(start + chunk)])
            start += chunk
        }
        return bytes
    }

    /// True when every byte of the file has been consumed.
    mutating func atEnd() throws(CaptureError) -> Bool {
        try !fill(1)
    }

    @inline(__always)
    func uint32(at index: Int, bigEndian: Bool) -> UInt32 {
        let raw = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt32.self) }
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    @inline(__always)
    func uint16(at index: Int, bigEndian: Bool) -> UInt16 {
        let raw = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt16.self) }
        return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
    }

    @inline(__always)
    func uint64(at index: Int, bigEndian: Bool) -> UInt64 {
        let raw = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt64.self) }
        return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }

    /// Up to `count` bytes from `start`, as hex, for error messages.
    func hexPrefix(_ count: Int) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in buffer[start..<min(end, start + count)] {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }
}
