import Foundation
import HCI

/// Builds capture files byte by byte, independently of the writer under test, so the readers can
/// be checked on layouts no shared capture has (H1, monitor, big-endian, nanoseconds, if_tsresol).
struct CaptureFileBuilder {
    var bytes: [UInt8] = []
    var bigEndian: Bool

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func u16(_ value: UInt16) {
        let v = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }

    mutating func u32(_ value: UInt32) {
        let v = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        let v = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: v) { bytes.append(contentsOf: $0) }
    }

    // MARK: btsnoop (always big-endian)

    static func btsnoop(datalink: UInt32) -> CaptureFileBuilder {
        var builder = CaptureFileBuilder(bigEndian: true)
        builder.bytes = Array("btsnoop\0".utf8)
        builder.u32(1)
        builder.u32(datalink)
        return builder
    }

    /// `micros` since the Unix epoch.
    mutating func btsnoopRecord(flags: UInt32, micros: Int64, data: [UInt8]) {
        u32(UInt32(data.count))
        u32(UInt32(data.count))
        u32(flags)
        u32(0)
        u64(UInt64(bitPattern: micros + 0x00DC_DDB3_0F2F_8000))
        bytes.append(contentsOf: data)
    }

    // MARK: pcap

    static func pcap(bigEndian: Bool, nanoseconds: Bool, linkType: UInt32) -> CaptureFileBuilder {
        var builder = CaptureFileBuilder(bigEndian: bigEndian)
        builder.u32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4)
        builder.u16(2)
        builder.u16(4)
        builder.u32(0)
        builder.u32(0)
        builder.u32(65535)
        builder.u32(linkType)
        return builder
    }

    mutating func pcapRecord(seconds: UInt32, fraction: UInt32, data: [UInt8]) {
        u32(seconds)
        u32(fraction)
        u32(UInt32(data.count))
        u32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    // MARK: pcapng

    mutating func block(type: UInt32, body: [UInt8]) {
        var padded = body
        while padded.count % 4 != 0 { padded.append(0) }
        let length = UInt32(12 + padded.count)
        u32(type)
        u32(length)
        bytes.append(contentsOf: padded)
        u32(length)
    }

    /// `commentBytes`: that many bytes of `shb_comment`, in options of at most 60,000 bytes.
    mutating func sectionHeader(commentBytes: Int = 0) {
        var body = CaptureFileBuilder(bigEndian: bigEndian)
        body.u32(0x1A2B_3C4D)
        body.u16(1)
        body.u16(0)
        body.u64(UInt64.max) // section length unknown
        if commentBytes > 0 {
            body.textOptions(code: 1, bytes: commentBytes)
            body.u16(0); body.u16(0)
        }
        block(type: 0x0A0D_0D0A, body: body.bytes)
    }

    /// `resolution` is the raw if_tsresol byte, nil to leave the option out (microseconds);
    /// `descriptionBytes` of `if_description` come before it.
    mutating func interface(linkType: UInt16, resolution: UInt8? = nil, offsetSeconds: Int64? = nil, descriptionBytes: Int = 0) {
        var body = CaptureFileBuilder(bigEndian: bigEndian)
        body.u16(linkType)
        body.u16(0)
        body.u32(0)
        if descriptionBytes > 0 { body.textOptions(code: 3, bytes: descriptionBytes) }
        if let resolution {
            body.u16(9); body.u16(1); body.bytes += [resolution, 0, 0, 0]
        }
        if let offsetSeconds {
            body.u16(14); body.u16(8); body.u64(UInt64(bitPattern: offsetSeconds))
        }
        body.u16(0); body.u16(0)
        block(type: 1, body: body.bytes)
    }

    /// Options `code` holding `bytes` letters in all, each at most 60,000 (an option's length is 16 bits).
    mutating func textOptions(code: UInt16, bytes: Int) {
        var left = bytes
        while left > 0 {
            let count = min(left, 60_000)
            u16(code); u16(UInt16(count))
            self.bytes += [UInt8](repeating: UInt8(ascii: "c"), count: count)
            while self.bytes.count % 4 != 0 { self.bytes.append(0) }
            left -= count
        }
    }

    mutating func enhancedPacket(interface: UInt32, ticks: UInt64, data: [UInt8]) {
        var body = CaptureFileBuilder(bigEndian: bigEndian)
        body.u32(interface)
        body.u32(UInt32(ticks >> 32))
        body.u32(UInt32(ticks & 0xFFFF_FFFF))
        body.u32(UInt32(data.count))
        body.u32(UInt32(data.count))
        body.bytes += data
        block(type: 6, body: body.bytes)
    }

    mutating func simplePacket(data: [UInt8]) {
        var body = CaptureFileBuilder(bigEndian: bigEndian)
        body.u32(UInt32(data.count))
        body.bytes += data
        block(type: 3, body: body.bytes)
    }
}

/// A directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("captures-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Reads a whole capture into memory for comparisons: each packet with the offset of its record.
struct ReadResult {
    var packets: [(offset: Int, packet: HCIPacket)] = []
    var records = 0
    var truncation: CaptureTruncationCopy?
    var errors: [String] = []
}

/// Mirrors `CaptureTruncation` so the helper file does not need `@testable` imports.
struct CaptureTruncationCopy: Equatable {
    var what: String
    var offset: Int
    var needed: Int
    var present: Int
}
