import Captures
import HCI
import Testing

/// Bad input: one clear error naming what and where, never a crash or an endless loop, and the
/// packets before a fault are still delivered.
@Suite final class CaptureErrorTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }
    deinit { directory.remove() }

    func openError(_ bytes: [UInt8]) throws -> CaptureError? {
        let path = try directory.write(bytes, name: "bad-\(bytes.count)")
        do {
            _ = try CaptureReader(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: CaptureError.cannotOpen(path: "/nonexistent/x.btsnoop", reason: "No such file or directory")) {
            try CaptureReader(path: "/nonexistent/x.btsnoop")
        }
    }

    @Test func unknownAndEmptyFilesNameTheirFirstBytes() throws {
        let text = try #require(try openError(Array("hello, world".utf8)))
        #expect(text.description.hasSuffix("not a btsnoop, pcap or pcapng file (first bytes 68656c6c6f2c2077)"))
        let empty = try #require(try openError([]))
        #expect(empty.description.contains("the file is empty"))
    }

    /// The first 16 bytes each tool wrote when it packed horizon74.btsnoop (gzip 1.12, xz 5.4,
    /// zstd 1.5, bzip2 1.0.8, zip 3.0).
    @Test("compressed captures and archives say what they are and how to unpack them", arguments: [
        ("1f8b0808ca1a056b0003686f72697a6f", "a gzip-compressed file: decompress it first (gunzip -k "),
        ("fd377a585a000004e6d6b44602002101", "an xz-compressed file: decompress it first (unxz -k "),
        ("28b52ffda418e101003d27029acc96ae", "a zstd-compressed file: decompress it first (unzstd "),
        ("425a683931415926535902e81dae00b0", "a bzip2-compressed file: decompress it first (bunzip2 -k "),
        ("504b03041400000008008528785de6e9", "a zip archive: take the capture out of it first (an Android bug report holds its HCI log at FS/data/misc/bluetooth/logs/btsnoop_hci.log: unzip "),
    ])
    func packedFilesAreNamed(head: String, said: String) throws {
        let bytes = stride(from: 0, to: head.count, by: 2).map { UInt8(head.dropFirst($0).prefix(2), radix: 16)! }
        let error = try #require(try openError(bytes))
        guard case .unsupported(_, let what) = error else { Issue.record("\(error)"); return }
        #expect(what.hasPrefix(said), "\(what)")
        // Cut to 6 bytes (shorter than any capture header, longer than any of these magics), still named.
        let magic = try #require(try openError(Array(bytes.prefix(6))))
        #expect(magic.description.contains(String(said.prefix(12))), "\(magic)")
    }

    @Test func unsupportedBtsnoopDatalinkAndPcapLinkTypeAreNamed() throws {
        let h5 = try #require(try openError(CaptureFileBuilder.btsnoop(datalink: 1004).bytes))
        #expect(h5.description.contains("btsnoop datalink 1004 (three-wire UART (H5))"))
        let ethernet = try #require(try openError(CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 1).bytes))
        #expect(ethernet.description.contains("pcap link type 1 is not a Bluetooth link type"))
        // BR/EDR baseband is Bluetooth, with nothing of LE in it: it was "not a Bluetooth link type".
        let baseband = try #require(try openError(CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 255).bytes))
        #expect(baseband.description.contains("pcap link type 255 (Bluetooth BR/EDR baseband) holds no LE advertisements (readable: 187, 201, 251, 254, 256, 272)"), "\(baseband)")
    }

    @Test func anImpossibleBtsnoopLengthIsCorruptAtItsOffset() throws {
        var file = CaptureFileBuilder.btsnoop(datalink: 1002)
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04, 0x0E, 0x01, 0x00])
        let goodEnd = file.bytes.count
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04, 0x0E, 0x01, 0x00])
        file.bytes.replaceSubrange((goodEnd + 4)..<(goodEnd + 8), with: [0x00, 0x10, 0x00, 0x00]) // 1 MiB
        let result = try readAll(try directory.write(file.bytes, name: "huge.btsnoop"))
        #expect(result.packets.count == 1)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.contains("corrupt btsnoop included length at byte \(goodEnd + 4): 1048576 bytes") == true)
    }

    @Test func aLengthBeyondTheEndOfFileIsATornRecord() throws {
        var file = CaptureFileBuilder.btsnoop(datalink: 1002)
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04, 0x0E, 0x01, 0x00])
        let tornAt = file.bytes.count
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04] + Array(repeating: 0, count: 299))
        file.bytes.removeLast(100)
        let result = try readAll(try directory.write(file.bytes, name: "torn.btsnoop"))
        #expect(result.packets.count == 1 && result.errors.isEmpty)
        #expect(result.truncation == CaptureTruncationCopy(what: "btsnoop record", offset: tornAt, needed: 324, present: 224))
    }

    @Test func malformedRecordsAreSkippedAndReadingGoesOn() throws {
        var file = CaptureFileBuilder.btsnoop(datalink: 1002)
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04, 0x0E, 0x01, 0x00])
        let badAt = file.bytes.count
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x09, 0x00])   // no such H4 indicator
        file.btsnoopRecord(flags: 3, micros: 0, data: [])             // empty
        file.btsnoopRecord(flags: 3, micros: 0, data: [0x04, 0x0E, 0x01, 0x00])
        let result = try readAll(try directory.write(file.bytes, name: "malformed.btsnoop"))
        #expect(result.packets.count == 2 && result.records == 4)
        #expect(result.errors.first == "\(directory.path("malformed.btsnoop")): malformed record at byte \(badAt + 24): unknown H4 packet indicator 0x9")
        #expect(result.errors.count == 2)
    }

    @Test func pcapngBlockLengthsAreChecked() throws {
        var file = CaptureFileBuilder(bigEndian: false)
        file.sectionHeader()
        file.interface(linkType: 201)
        let blockAt = file.bytes.count
        file.enhancedPacket(interface: 0, ticks: 0, data: [0, 0, 0, 1, 4, 0x0E, 0x01, 0x00])
        var notFour = file.bytes
        notFour[blockAt + 4] = 0x2B // 43: not a multiple of 4
        var mismatched = file.bytes
        mismatched[mismatched.count - 4] = 0x30 // trailing length differs
        var badInterface = file.bytes
        badInterface[blockAt + 8] = 7
        let a = try readAll(try directory.write(notFour, name: "a.pcapng"))
        #expect(a.errors.first?.contains("corrupt pcapng block total length at byte \(blockAt + 4): 43") == true)
        let b = try readAll(try directory.write(mismatched, name: "b.pcapng"))
        #expect(b.errors.first?.contains("corrupt pcapng trailing block total length") == true)
        let c = try readAll(try directory.write(badInterface, name: "c.pcapng"))
        #expect(c.errors.first?.contains("interface 7 was never described") == true)
        #expect(c.packets.isEmpty && c.records == 1)
    }

    @Test func garbageAfterAValidHeaderEndsWithoutHanging() throws {
        // Deterministic pseudo-random garbage behind each header: whatever it says, reading ends.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextByte() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        var pcapng = CaptureFileBuilder(bigEndian: false)
        pcapng.sectionHeader()
        pcapng.interface(linkType: 201)
        let headers = [
            CaptureFileBuilder.btsnoop(datalink: 1002).bytes, CaptureFileBuilder.btsnoop(datalink: 2001).bytes,
            CaptureFileBuilder.pcap(bigEndian: true, nanoseconds: false, linkType: 201).bytes, pcapng.bytes,
        ]
        for (index, header) in headers.enumerated() {
            for round in 0..<20 {
                let garbage = (0..<(64 + round * 97)).map { _ in nextByte() }
                let result = try readAll(try directory.write(header + garbage, name: "garbage-\(index)-\(round)"))
                #expect(result.records <= garbage.count / 12 + 1)
            }
        }
    }
}
