import Foundation
import TestFixtures
import Testing

/// Where a bad record is, said the same way by every command that reads a capture, so it can be
/// found in the file (docs/robustness.md).
@Suite struct MalformedPacketPlaceTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// `govee-h5100.btsnoop` with `change` made to its first LE Meta event from the 101st record on
    /// (record 110, at byte 6647: `04 3E 24`, 39 bytes), in a temporary file.
    static func alteredCapture(_ change: (inout [UInt8], _ record: Int) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        var offset = 16
        var index = 0
        func field(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        while index < 100 || bytes[offset + 24] != 0x04 || bytes[offset + 25] != 0x3E {
            offset += 24 + field(offset + 4)
            index += 1
        }
        change(&bytes, offset)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("altered-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `replay` said "first malformed HCI packet: parameter length says 37, 36 present" and no
    /// more: the packet could not be found in the file, where `decode` gives its record's offset.
    @Test("replay and report name the first malformed packet's record by its byte offset, as decode does")
    func replayNamesTheRecordAsDecodeDoes() throws {
        // The event's parameter length one more than the record holds.
        let path = try Self.alteredCapture { bytes, record in bytes[record + 26] += 1 }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decode = try HostileInputCommandTests.run(["decode", path], timeout: 60)
        let place = "malformed packet in the record at byte 6647: HCI "
        #expect(decode.status == 0 && decode.stderr.contains("warning: " + place), "\(decode.stderr)")
        for arguments in [["replay", path, "--json"], ["report", path]] {
            let run = try HostileInputCommandTests.run(arguments, timeout: 60)
            #expect(run.status == 0 && run.stderr.contains("warning: first " + place), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("1 malformed packets"), "\(arguments): \(run.stderr)")
        }
    }

    /// A report the capture's snap length cut read "malformed packet ... parameter length says 36, 24
    /// present", as if the file were damaged: each command says it was cut, and counts it apart.
    @Test("decode, replay, report and scan say a record was cut by the snap length and count it apart")
    func aCutRecordIsSaidToBeCut() throws {
        // 12 bytes fewer captured, the original length (39) kept.
        let path = try Self.alteredCapture { bytes, record in
            bytes[record + 7] -= 12
            bytes.removeSubrange((record + 24 + 27)..<(record + 24 + 39))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let said = "\(path): record at byte 6647 cut by the capture's snap length (27 of 39 bytes captured); skipped"
        let decode = try HostileInputCommandTests.run(["decode", path], timeout: 60)
        #expect(decode.status == 0 && decode.stderr.contains("warning: " + said), "\(decode.stderr)")
        #expect(decode.stderr.contains("0 malformed packets, 1 cut by the snap length"), "\(decode.stderr)")
        for arguments in [["replay", path, "--json"], ["report", path]] {
            let run = try HostileInputCommandTests.run(arguments, timeout: 60)
            #expect(run.status == 0 && run.stderr.contains("warning: " + said), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("0 malformed packets, 1 cut by the snap length"), "\(arguments): \(run.stderr)")
        }
        // scan replays through the monitor's engine: the first cut said as it comes, the count at the end.
        let scan = try HostileInputCommandTests.run(["scan", path, "--json"], timeout: 60)
        #expect(scan.status == 0 && scan.stderr.contains(said), "\(scan.stderr)")
        #expect(scan.stderr.contains("1 records cut by the capture's snap length skipped"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("malformed packets skipped"), "\(scan.stderr)")
    }
}
