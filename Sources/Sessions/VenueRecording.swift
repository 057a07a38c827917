import BeaconFormats
import Captures
import Foundation
import HCI
import NDJSON
import PacketSources
import Venue

/// A venue recording (docs/formats.md "Venue recordings"): what a venue view received, as NDJSON,
/// one line per broker message with its receive time, after a header line naming the format and
/// the topics' prefix:
///
/// ```json
/// {"beacontopVenueRecording":1,"prefix":""}
/// {"t":1795411724.123456,"topic":"espresense/devices/iBeacon:…/kitchen","payload":"{\"id\":…}"}
/// {"t":1795411725.000001,"topic":"beacontop/scanners/pi-a/status","payload":"offline","retained":true}
/// ```
///
/// A payload that is not UTF-8 is kept byte for byte as `payloadHex`. Each line goes out in one
/// write(2), so a recording killed with `kill -9` reads up to its last whole line, and a line a
/// full disk takes only part of is cut off again (`RecordingWrite`).
public enum VenueRecording {
    /// The header's key; its value is the format's version.
    public static let marker = "beacontopVenueRecording"
    public static let version = 1

    /// True when the file starts with a venue recording's header.
    public static func looksLikeRecording(path: String) -> Bool {
        guard RecordingFileKind.isReadable(path: path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 64)) ?? Data()
        return String(decoding: start, as: UTF8.self).hasPrefix("{\"\(marker)\"")
    }
}

/// Writes a venue recording (`--record FILE` and `r` on a broker source).
public struct VenueRecordingWriter: PacketRecorder {
    private let file: FileDescriptorBox
    private var line = JSONWriter(capacity: 4096)
    public let path: String

    public init(path: String, prefix: String) throws {
        let descriptor = try RecordingFileCreation.open(path: path)
        self.path = path
        file = FileDescriptorBox(descriptor)
        line.raw("{\"beacontopVenueRecording\":")
        line.integer(VenueRecording.version)
        line.raw(",\"prefix\":")
        line.string(prefix)
        line.raw("}\n")
        try flush()
    }

    /// A broker source delivers no packets; nothing to write.
    public mutating func write(_ packet: HCIPacket) throws {}

    public mutating func write(_ message: BrokerMessage) throws {
        line.raw("{\"t\":")
        line.fixed(message.receivedAt, decimals: 6)
        line.raw(",\"topic\":")
        line.string(message.topic)
        if let text = String(validating: message.payload, as: UTF8.self) {
            line.raw(",\"payload\":")
            line.string(text)
        } else {
            line.raw(",\"payloadHex\":\"")
            for byte in message.payload {
                line.byte(Self.hexDigits[Int(byte >> 4)])
                line.byte(Self.hexDigits[Int(byte & 0xF)])
            }
            line.raw("\"")
        }
        if message.retained { line.raw(",\"retained\":true") }
        line.raw("}\n")
        try flush()
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// One line, whole (`RecordingWrite`): a line a full disk takes only part of is cut off again,
    /// so a recording stopped by a write error ends on its last whole line.
    private mutating func flush() throws(CaptureError) {
        defer { line.removeAll() }
        try RecordingWrite.whole(Array(line.bytes), to: file.value, path: path)
    }
}

/// Reads a venue recording line by line, in 1 MiB blocks (a long recording is never held whole);
/// a line that cannot be read is an error naming it.
public struct VenueRecordingReader: Sendable {
    public let path: String
    public private(set) var prefix = ""
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The number of the last line read (the header is line 1).
    public private(set) var lineNumber = 0
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    /// The byte offset in the file of the last line read: where a reader resumes to read it again.
    public private(set) var lineOffset = 0
    /// The file the reader has open, to tell a file replaced under its name (`FileIdentity`).
    public let file: FileIdentity

    /// What is wrong with a last line that has no newline: words for whoever replays it.
    static let cutShort = "(the last) is cut short: the recording was stopped mid-write"

    /// The longest line read (a broker message is at most 256 KiB; its escaped form fits).
    public static let maximumLine = 2 << 20

    public init(path: String) throws(VenueRecordingError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw VenueRecordingError(path: path, line: 0, problem: "cannot be read")
        }
        self.handle = handle
        file = FileIdentity(descriptor: handle.fileDescriptor)
        guard let header = try nextLine(), let value = try? JSONValue(parsing: header),
              value[VenueRecording.marker]?.number == Double(VenueRecording.version) else {
            throw VenueRecordingError(path: path, line: 1, problem: "is not a venue recording (no {\"\(VenueRecording.marker)\":1} header)")
        }
        prefix = value["prefix"]?.string ?? ""
    }

    /// A reader of the same recording whose next line is the one at byte `offset`, line number
    /// `line` (a checkpoint's position: `lineOffset` and `lineNumber` when that line was read).
    /// The header is read again, so a file that is no longer a recording is refused here.
    public init(path: String, resumingAt offset: Int, line: Int) throws(VenueRecordingError) {
        try self.init(path: path)
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil else {
            throw VenueRecordingError(path: path, line: line, problem: "cannot be read at byte \(offset)")
        }
        buffer.removeAll()
        position = 0
        atEnd = false
        bufferOffset = offset
        lineNumber = line - 1
    }

    /// The next message; nil at the end.
    public mutating func next() throws(VenueRecordingError) -> BrokerMessage? {
        guard let text = try nextLine() else { return nil }
        let number = lineNumber
        func fail(_ problem: String) -> VenueRecordingError { VenueRecordingError(path: path, line: number, problem: problem) }
        if let message = Self.message(flat: Array(text)) { return message }
        do { return try Self.message(document: text) } catch { throw fail(error.problem) }
    }

    struct LineProblem: Error { var problem: String }

    /// A line read through a whole JSON document: what the flat fast path must agree with, and
    /// what names what is wrong with a line.
    static func message(document text: ArraySlice<UInt8>) throws(LineProblem) -> BrokerMessage {
        func fail(_ problem: String) -> LineProblem { LineProblem(problem: problem) }
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { throw fail("\(error)") }
        guard let time = value["t"]?.number, time.isFinite else { throw fail("has no number \"t\"") }
        // A receive time outside 1970 to 2200 (a forged or garbled line) is refused as a capture's
        // record is: the report's hours from 1795411724 to 1.8e14 s never ended (fuzz-venue-recording).
        guard TimestampPolicy.accepts(time) else { throw fail(TimestampPolicy.refusal(time)) }
        guard let topic = value["topic"]?.string else { throw fail("has no string \"topic\"") }
        let payload: [UInt8]
        if let text = value["payload"]?.string {
            payload = Array(text.utf8)
        } else if let hex = value["payloadHex"]?.string, let bytes = UUIDBytes.hexBytes(Substring(hex)) {
            payload = bytes
        } else {
            throw fail("has neither \"payload\" nor hex \"payloadHex\"")
        }
        return BrokerMessage(topic: topic, payload: payload, receivedAt: time, retained: value["retained"]?.bool ?? false)
    }

    /// The members a line is read for, in `JSONFlatObject`'s order.
    private static let keys: [StaticString] = ["t", "topic", "payload", "payloadHex", "retained"]

    /// A line as the writer writes it, read without a JSON document; nil for anything `next`
    /// reads the long way (which also names what is wrong), and then the same message it would make.
    static func message(flat line: [UInt8]) -> BrokerMessage? {
        guard let flat = JSONFlatObject(line, keys: keys, utf8Key: 2), let time = flat.number(0), TimestampPolicy.accepts(time),
              let topic = flat.string(1) else { return nil }
        let payload: [UInt8]
        if case .utf8? = flat[2] {
            payload = flat.utf8
        } else if let hex = flat.string(3), let bytes = UUIDBytes.hexBytes(Substring(hex)) {
            payload = bytes
        } else {
            return nil
        }
        return BrokerMessage(topic: topic, payload: payload, receivedAt: time, retained: flat.bool(4) ?? false)
    }

    /// The next line's bytes without its newline. A last line without one that is no whole JSON
    /// object (a recording killed mid-write, or one a full disk took part of before the writer cut
    /// such parts off) is an error saying so, after every whole line: it was left out without a word.
    private mutating func nextLine() throws(VenueRecordingError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = buffer[position..<newline]
                lineOffset = bufferOffset + position
                position = newline + 1
                lineNumber += 1
                return line
            }
            guard buffer.count - position <= Self.maximumLine else {
                throw VenueRecordingError(path: path, line: lineNumber + 1, problem: "is over \(Self.maximumLine) bytes")
            }
            if atEnd {
                guard position == buffer.count else {
                    let rest = buffer[position...]
                    let offset = bufferOffset + position
                    // Said once: the next read is the end, so a `--loop` loops on as before.
                    position = buffer.count
                    // A whole JSON object lacking only its newline (a hand edit, a tool that does
                    // not end files with one) is a line: an object cut mid-write cannot parse whole.
                    if case .object? = try? JSONValue(parsing: rest) {
                        lineOffset = offset
                        lineNumber += 1
                        return rest
                    }
                    throw VenueRecordingError(path: path, line: lineNumber + 1, problem: Self.cutShort)
                }
                return nil
            }
            buffer.removeSubrange(0..<position)
            bufferOffset += position
            position = 0
            let block = (try? handle.read(upToCount: 1 << 20)) ?? nil
            guard let block, !block.isEmpty else {
                atEnd = true
                continue
            }
            buffer.append(contentsOf: block)
        }
    }
}

public struct VenueRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var problem: String

    /// The last line is cut short (a recorder stopped mid-write): the recording's end, not a
    /// bad line in it.
    public var isCutShort: Bool { problem == VenueRecordingReader.cutShort }

    public var description: String { line > 0 ? "\(path): line \(line) \(problem)" : "\(path): \(problem)" }
}

/// Which file a path named when it was opened (device and inode): a recording replaced under its
/// name (written anew, renamed over) is another file, and a position in the old one means nothing.
public struct FileIdentity: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64

    init(descriptor: Int32) {
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        } else {
            device = 0
            inode = 0
        }
    }
}

/// Closes its descriptor when the last writer copy goes.
final class FileDescriptorBox: Sendable {
    let value: Int32
    init(_ value: Int32) { self.value = value }
    deinit { close(value) }
}
