import Captures
import Foundation
import TestFixtures
import Testing

/// A record the capture's snap length cut (captured length under the original length: tcpdump
/// `-s`, a pcapng interface's `if_snaplen`) is said to be cut, not malformed: an advertising report
/// cut short read as "parameter length says 33, 21 present", as if the file were damaged.
@Suite struct SnapLengthCutTests {
    /// `file`'s bytes with `change` made, in a temporary file of the same kind.
    static func altered(_ file: String, _ change: (inout [UInt8]) throws -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture(file)))
        try change(&bytes)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString.prefix(8))-\(file)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func setUInt32(_ value: Int, at offset: Int, bigEndian: Bool, in bytes: inout [UInt8]) {
        let field = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        bytes.replaceSubrange(offset..<(offset + 4), with: bigEndian ? field.reversed() : field)
    }

    /// Every error the reader throws on `path`, and the packets it returns.
    static func read(_ path: String) throws -> (errors: [CaptureError], packets: Int, records: Int) {
        var reader = try CaptureReader(path: path)
        var errors: [CaptureError] = []
        var packets = 0
        while true {
            do {
                guard try reader.next() != nil else { break }
                packets += 1
            } catch {
                errors.append(error)
                if !error.isRecoverable { break }
            }
        }
        return (errors, packets, reader.recordCount)
    }

    @Test("btsnoop, pcap and pcapng: an LE Meta event cut by the snap length is said to be cut, skipped, and reading goes on")
    func aCutReportIsSaidToBeCut() throws {
        // (file, the record's offset, its captured length field's, byte order, captured length)
        let cases: [(file: String, record: Int, included: Int, bigEndian: Bool, length: Int)] = [
            // govee-h5100.btsnoop's record 110: 04 3E 24, 39 bytes.
            ("govee-h5100.btsnoop", 6647, 6647 + 4, true, 39),
            // govee-inout.pcap (link type 201) record 100: direction, then 04 3E 21, 40 bytes.
            ("govee-inout.pcap", 3882, 3882 + 8, false, 40),
            // govee-h5105.pcapng's Enhanced Packet Block at 320 (68 bytes): 04 3E 1D, 36 bytes.
            ("govee-h5105.pcapng", 320, 320 + 20, false, 36),
        ]
        for item in cases {
            let whole = try Self.read(SharedData.capture(item.file).path)
            let path = try Self.altered(item.file) { bytes in
                // 12 bytes fewer captured, the original length kept: what a snap length does.
                let dataEnd: Int
                if item.file.hasSuffix(".pcapng") {
                    let blockLength = 68
                    dataEnd = item.record + 28 + item.length
                    Self.setUInt32(blockLength - 12, at: item.record + 4, bigEndian: false, in: &bytes)
                    Self.setUInt32(blockLength - 12, at: item.record + blockLength - 4, bigEndian: false, in: &bytes)
                } else {
                    dataEnd = item.record + (item.file.hasSuffix(".btsnoop") ? 24 : 16) + item.length
                }
                Self.setUInt32(item.length - 12, at: item.included, bigEndian: item.bigEndian, in: &bytes)
                bytes.removeSubrange((dataEnd - 12)..<dataEnd)
            }
            defer { try? FileManager.default.removeItem(atPath: path) }
            let cut = try Self.read(path)
            #expect(cut.errors == whole.errors + [.cutBySnapLength(path: path, offset: item.record, captured: item.length - 12, original: item.length)],
                    "\(item.file): \(cut.errors)")
            #expect(cut.packets == whole.packets - 1 && cut.records == whole.records, "\(item.file)")
            #expect(cut.errors.last?.description == "\(path): record at byte \(item.record) cut by the capture's snap length (\(item.length - 12) of \(item.length) bytes captured); skipped")
        }
        // Only what beacontop decodes is said to be cut: an Android filtered snoop log cuts ACL data
        // on purpose, and a cut Command Complete is of no use to a replay either way. The 7-byte
        // Command Complete at 44 (govee-h5100.btsnoop's record 1), said to be 10 long, is returned.
        let commandPath = try Self.altered("govee-h5100.btsnoop") { bytes in Self.setUInt32(10, at: 44, bigEndian: true, in: &bytes) }
        defer { try? FileManager.default.removeItem(atPath: commandPath) }
        let command = try Self.read(commandPath)
        let wholeLog = try Self.read(SharedData.capture("govee-h5100.btsnoop").path)
        #expect(command.errors == wholeLog.errors && command.packets == wholeLog.packets)
        // A record header across the read buffer's 256 KiB edge: its original length read after
        // the buffer moved said the demo's record at byte 262078 was 14,886,146 bytes long.
        for demo in ["museum-walk.btsnoop", "tradeshow.btsnoop"] {
            let errors = try Self.read(SharedData.repositoryRoot.appendingPathComponent("demo/\(demo)").path).errors
            #expect(errors.isEmpty, "\(demo): \(errors)")
        }
    }
}
