import Captures
import Foundation
import HCI
import TestFixtures
import Testing

/// `CaptureReader(bytes:name:)` reads what `CaptureReader(path:)` reads from the file holding the
/// same bytes: the fuzz harnesses read their inputs in memory, so every finding must hold for files.
@Suite struct InMemoryCaptureTests {
    static let files = SharedCaptureTests.table.map { SharedData.capture($0.file).path }
        + ["btsnoop-eddystone-url-controls.btsnoop", "btsnoop-extreme-times.btsnoop", "pcapng-time-jump.pcapng",
           "pcapng-tsoffset-negative.pcapng", "pcapng-tsoffset-positive.pcapng",
           "pcapng-tsresol-seconds-max-ticks.pcapng"].map(HostileInputs.path)

    /// Whole files (five of the real captures are larger than the file reader's 256 KiB buffer,
    /// so it refills and moves its tail many times) and copies cut inside a record.
    @Test(arguments: files)
    func bytesInMemoryReadAsTheFileHoldingThem(_ path: String) throws {
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cuts = [original.count] + [0.01, 0.5, 0.9].map { Int(Double(original.count) * $0) } + [original.count - 1]
        for cut in cuts {
            let bytes = Array(original[..<cut])
            let copy = try directory.write(bytes, name: "cut-\(cut)")
            let reading = expectSameReading(file: copy, bytes: bytes, "\(path) cut at \(cut)")
            if cut == original.count {
                #expect((reading?.records ?? 0) > 0, "\(path): no record read, nothing compared")
            }
        }
    }

    /// A pcapng block longer than the file reader's buffer is skipped, not read into it: in
    /// memory too, and a file ending inside one is torn at the same place.
    @Test func aBlockLongerThanTheFileBufferIsSkippedInMemoryToo() throws {
        var builder = CaptureFileBuilder(bigEndian: false)
        builder.sectionHeader()
        builder.interface(linkType: 201)
        builder.block(type: 0x0BAD, body: [UInt8](repeating: 0xEE, count: 300 * 1024))
        builder.enhancedPacket(interface: 0, ticks: 1_700_000_000_000_000, data: [0, 0, 0, 1, 0x04, 0x0E, 0x01, 0x00])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for bytes in [builder.bytes, Array(builder.bytes.dropLast(40)), Array(builder.bytes.prefix(200 * 1024))] {
            let copy = try directory.write(bytes, name: "long-block-\(bytes.count)")
            expectSameReading(file: copy, bytes: bytes, "\(bytes.count) bytes")
        }
        var reader = try CaptureReader(bytes: builder.bytes, name: "long-block")
        #expect(readAll(&reader).packets.count == 1)
    }

    @Test func tooShortAndUnknownBytesAreRefusedLikeFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for bytes: [UInt8] in [[], [0x0A, 0x0D, 0x0D], Array("not a capture".utf8), Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03]] {
            let copy = try directory.write(bytes, name: "short-\(bytes.count)")
            let fromFile: CaptureError?
            do { _ = try CaptureReader(path: copy); fromFile = nil } catch { fromFile = error }
            let fromBytes: CaptureError?
            do { _ = try CaptureReader(bytes: bytes, name: copy); fromBytes = nil } catch { fromBytes = error }
            #expect(fromFile != nil)
            #expect(fromBytes == fromFile)
        }
    }

    /// Reads `bytes` both ways and expects the same outcome: the same opening error, or the same
    /// packets, record offsets, errors, truncation and counts. Returns the file's reading.
    @discardableResult
    private func expectSameReading(file: String, bytes: [UInt8], _ label: String) -> ReadResult? {
        var fromFile: CaptureReader
        do {
            fromFile = try CaptureReader(path: file)
        } catch {
            do {
                _ = try CaptureReader(bytes: bytes, name: file)
                Issue.record("\(label): the file was refused (\(error)), the bytes were not")
            } catch let refusal {
                #expect(refusal == error, "\(label)")
            }
            return nil
        }
        var fromBytes: CaptureReader
        do {
            fromBytes = try CaptureReader(bytes: bytes, name: file)
        } catch {
            Issue.record("\(label): the bytes were refused (\(error)), the file was not")
            return nil
        }
        #expect(fromBytes.format == fromFile.format, "\(label)")
        let expected = readAll(&fromFile)
        let got = readAll(&fromBytes)
        #expect(got.records == expected.records, "\(label)")
        #expect(got.truncation == expected.truncation, "\(label)")
        #expect(got.errors == expected.errors, "\(label)")
        #expect(got.packets.count == expected.packets.count, "\(label)")
        #expect(zip(got.packets, expected.packets).allSatisfy { $0.offset == $1.offset && $0.packet == $1.packet }, "\(label)")
        #expect(fromBytes.skippedRecords == fromFile.skippedRecords, "\(label)")
        #expect(fromBytes.nonAdvertisingLinkLayerRecords == fromFile.nonAdvertisingLinkLayerRecords, "\(label)")
        return expected
    }
}
