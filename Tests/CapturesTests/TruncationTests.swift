import BeaconFormats
import Captures
import Foundation
import HCI
import TestFixtures
import Testing

/// Copies of each real capture cut at several offsets decode up to the cut and say where it is:
/// what a capture killed mid-write, or copied while being written, looks like.
@Suite struct TruncationTests {
    static let files = SharedCaptureTests.table.map(\.file)

    @Test(arguments: files)
    func aCutCopyDecodesUpToTheCutAndReportsTheTornRecord(_ file: String) throws {
        let original = try Array(Data(contentsOf: SharedData.capture(file)))
        let full = try readAll(SharedData.capture(file).path)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Fractions of the file, plus the last byte: most cuts land inside a record.
        let cuts = [0.13, 0.5, 0.77, 0.9].map { Int(Double(original.count) * $0) } + [original.count - 1]
        for cut in cuts {
            let path = try directory.write(Array(original[..<cut]), name: "cut-\(cut)")
            let result = try readAll(path)
            #expect(result.errors.filter { !$0.contains("malformed record") }.isEmpty, "cut \(cut)")
            let expected: [(offset: Int, packet: HCIPacket)]
            if let truncation = result.truncation {
                // The torn record starts before the cut and would have ended after it.
                #expect(truncation.offset < cut && truncation.offset + truncation.needed > cut, "cut \(cut)")
                #expect(truncation.offset + truncation.present == cut, "cut \(cut)")
                // Every packet whose record starts before the torn one is returned, unchanged.
                expected = full.packets.filter { $0.offset < truncation.offset }
            } else {
                // Only a cut exactly between two records leaves nothing torn.
                #expect(full.packets.contains { $0.offset == cut }, "cut \(cut) is no record boundary yet nothing was reported")
                expected = full.packets.filter { $0.offset < cut }
            }
            #expect(result.packets.count == expected.count, "cut \(cut)")
            #expect(zip(result.packets, expected).allSatisfy { $0.packet == $1.packet && $0.offset == $1.offset })
        }
    }

    @Test(arguments: ["govee-h5100.btsnoop", "govee-h5105.pcapng", "govee-inout.pcap"])
    func beaconsBeforeTheCutAreAllDecoded(_ file: String) throws {
        let original = try Array(Data(contentsOf: SharedData.capture(file)))
        var all: [BeaconSighting] = []
        _ = try CaptureBeaconScanner.scan(path: SharedData.capture(file).path, onSighting: { all.append($0) })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cut = original.count * 2 / 3 + 1
        let path = try directory.write(Array(original[..<cut]), name: "cut")
        var some: [BeaconSighting] = []
        let totals = try CaptureBeaconScanner.scan(path: path, onSighting: { some.append($0) })
        #expect(totals.truncation != nil && totals.stoppedBy == nil)
        #expect(!some.isEmpty && some.count < all.count)
        #expect(some == Array(all.prefix(some.count)))
    }

    @Test func aCutOnARecordBoundaryIsNoTruncation() throws {
        let file = SharedData.capture("horizon74.btsnoop")
        let original = try Array(Data(contentsOf: file))
        let full = try readAll(file.path)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let boundary = full.packets[100].offset
        let result = try readAll(try directory.write(Array(original[..<boundary]), name: "boundary"))
        #expect(result.truncation == nil && result.errors.isEmpty)
        #expect(result.packets.count == 100)
    }

    @Test func aFileCutInsideItsHeaderIsOneClearError() throws {
        let original = try Array(Data(contentsOf: SharedData.capture("govee-inout.pcap")))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Array(original[..<12]), name: "header")
        #expect(throws: CaptureError.self) { try CaptureReader(path: path) }
        do {
            _ = try CaptureReader(path: path)
        } catch {
            #expect(error.description.contains("pcap file header at byte 0: file ends after 12 of 24 bytes"))
        }
    }

    /// A pcapng file's header is its first Section Header Block (bytes 0-27 in govee-h5105.pcapng),
    /// then the Interface Description Block its packets need (bytes 28-47): cut inside either, the
    /// file holds no record and is refused, as a btsnoop or pcap file cut inside its header is,
    /// rather than read as an empty capture with a warning (and status 0, inside the interface).
    @Test(arguments: [
        (10, "pcapng Section Header Block", 0, "file ends after 10 of at least 12 bytes", 28),
        (20, "pcapng Section Header Block", 0, "file ends after 20 of 28 bytes", 28),
        (32, "pcapng Interface Description Block", 28, "file ends after 4 of at least 8 bytes", 48),
        (40, "pcapng Interface Description Block", 28, "file ends after 12 of 20 bytes", 48),
        (47, "pcapng Interface Description Block", 28, "file ends after 19 of 20 bytes", 48),
    ])
    func aPCAPNGCutInsideItsHeaderBlocksIsOneClearError(_ cut: Int, _ field: String, _ offset: Int, _ reason: String, _ whole: Int) throws {
        let original = try Array(Data(contentsOf: SharedData.capture("govee-h5105.pcapng")))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Array(original[..<cut]), name: "cut")
        #expect(throws: CaptureError.corrupt(path: path, field: field, offset: offset, reason: reason)) {
            try CaptureReader(path: path)
        }
        // Whole, with nothing after it, it is a capture with no records: no error.
        let complete = try readAll(try directory.write(Array(original[..<whole]), name: "whole"))
        #expect(complete.packets.isEmpty && complete.truncation == nil && complete.errors.isEmpty)
    }
}
