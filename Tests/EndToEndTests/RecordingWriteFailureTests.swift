import Foundation
import TestFixtures
import Testing

/// A recording whose file cannot grow (a full disk in the field; the file size limit here: both
/// take what fits of a write, then refuse the rest) stops with a line saying so, and the file it
/// leaves ends on a whole record: `decode` reads it without a warning and tshark without an error.
@Suite struct RecordingWriteFailureTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test func aRecordingStoppedByAFullDiskEndsOnAWholeRecord() throws {
        let tshark = "/usr/bin/tshark"
        try #require(FileManager.default.isExecutableFile(atPath: tshark), "tshark is installed by Tests/setup.sh")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recording-full-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("rec.btsnoop").path
        // dash counts `ulimit -f` in 512-byte blocks: 20 KB, a few hundred of the capture's 18,509
        // records. SIGXFSZ ignored, as a full disk raises none: the write fails with EFBIG instead.
        let scan = try ExternalCommand.run("/bin/sh", [
            "-c", "trap '' XFSZ; ulimit -f 40; exec \"$0\" scan \"$1\" --speed max --record \"$2\" > /dev/null",
            beacontopExecutable, SharedData.capture("govee-h5100.btsnoop").path, recording,
        ])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("recording \(recording): lost (\(recording): cannot write: File too large; recording stopped)"), "\(scan.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int)
        #expect(size > 16 && size <= 40 * 512)
        let decode = try ExternalCommand.run(beacontopExecutable, ["decode", recording])
        #expect(decode.status == 0 && !decode.stderr.contains("warning"), "\(decode.stderr)")
        #expect(decode.stderr.contains("0 malformed packets"), "\(decode.stderr)")
        let read = try ExternalCommand.run(tshark, ["-r", recording])
        #expect(read.status == 0, "\(read.stderr)")
    }
}
