#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HCI

/// Writes HCI packets as btsnoop, datalink 1002 (H4), the format Android's HCI snoop log uses and
/// Wireshark, btmon and this project's `CaptureReader` read.
///
/// Each record (24-byte header and H4 bytes) goes to the kernel in one write(2) as soon as
/// `write(_:)` is called, with no userspace buffer across records: if the process is killed
/// (even with SIGKILL) the file holds every record written before, and at worst one torn record
/// that `CaptureReader` reports as a truncation. A record a full disk takes only part of is cut
/// off again, so a recording stopped by a write error ends on a whole record.
public struct BTSnoopWriter: Sendable {
    public let path: String
    private let file: OpenFileDescriptor
    /// Reused for every record so writing allocates nothing per packet.
    private var record: [UInt8] = []
    public private(set) var packetsWritten = 0

    /// Creates `path` and writes the 16-byte file header. An existing file holding bytes is
    /// refused (`.outputExists`) unless `replacing` (generated files: the simulator's, benchmarks').
    public init(path: String, replacing: Bool = false) throws(CaptureError) {
        let descriptor = try RecordingFileCreation.open(path: path, replacing: replacing)
        self.path = path
        self.file = OpenFileDescriptor(descriptor)
        record.reserveCapacity(512)
        record.append(contentsOf: CaptureFormat.btsnoopMagic)
        Self.appendBigEndian(UInt32(1), to: &record)      // version
        Self.appendBigEndian(UInt32(1002), to: &record)   // datalink: HCI UART (H4)
        try writeRecord()
    }

    /// Appends one packet as a whole record.
    public mutating func write(_ packet: HCIPacket) throws(CaptureError) {
        let length = UInt32(packet.payload.count + 1)
        var flags: UInt32 = packet.direction == .controllerToHost ? 1 : 0
        if packet.type == .command || packet.type == .event { flags |= 2 }
        let seconds = packet.timestamp.isFinite ? packet.timestamp : 0
        let micros = Int64((seconds * 1e6).rounded()) &+ CaptureReader.btsnoopEpochOffset
        record.removeAll(keepingCapacity: true)
        Self.appendBigEndian(length, to: &record)          // original length
        Self.appendBigEndian(length, to: &record)          // included length
        Self.appendBigEndian(flags, to: &record)
        Self.appendBigEndian(UInt32(0), to: &record)       // cumulative drops
        Self.appendBigEndian(UInt64(bitPattern: micros), to: &record)
        record.append(packet.type.rawValue)
        record.append(contentsOf: packet.payload)
        try writeRecord()
        packetsWritten += 1
    }

    private func writeRecord() throws(CaptureError) {
        try RecordingWrite.whole(record, to: file.value, path: path)
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
