import Captures
import Foundation
import HCI
import TestFixtures
import Testing

@Suite final class BTSnoopWriterTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }
    deinit { directory.remove() }

    /// Every packet of a real capture, rewritten, reads back identical (H4 btsnoop keeps
    /// microsecond timestamps, direction and type).
    @Test func aRealCaptureRoundTrips() throws {
        let original = try readAll(SharedData.capture("govee-h5105.pcapng").path)
        let path = directory.path("roundtrip.btsnoop")
        var writer = try BTSnoopWriter(path: path)
        for (_, packet) in original.packets { try writer.write(packet) }
        #expect(writer.packetsWritten == original.packets.count)
        let copy = try readAll(path)
        #expect(copy.errors.isEmpty && copy.truncation == nil)
        #expect(copy.packets.count == original.packets.count)
        #expect(zip(copy.packets, original.packets).allSatisfy { c, o in
            c.packet.payload == o.packet.payload && c.packet.type == o.packet.type
                && c.packet.direction == o.packet.direction && abs(c.packet.timestamp - o.packet.timestamp) < 1e-6
        })
    }

    /// Each write reaches the file before it returns (no userspace buffer): what `kill -9` leaves
    /// behind is every record written so far.
    @Test func eachRecordIsInTheFileWhenWriteReturns() throws {
        let path = directory.path("unbuffered.btsnoop")
        var writer = try BTSnoopWriter(path: path)
        #expect(try fileSize(path) == 16)
        var expected = 16
        for index in 0..<50 {
            let packet = AdvertisingReportEncoder.legacyReportPacket([
                Advertisement(timestamp: 1_700_000_000 + Double(index), address: BDAddress(rawValue: UInt64(index)),
                              addressType: .publicDevice, eventKind: .advNonconnInd, rssi: -60,
                              data: SharedDataBytes.iBeaconAdvertisingData[...]),
            ], at: 1_700_000_000 + Double(index))
            try writer.write(packet)
            expected += 24 + 1 + packet.payload.count
            #expect(try fileSize(path) == expected)
            // Read back while the writer is still open, as a reader after a SIGKILL would.
            #expect(try readAll(path).packets.count == index + 1)
        }
        var sightings = 0
        _ = try CaptureBeaconScanner.scan(path: path, onSighting: { _ in sightings += 1 })
        #expect(sightings == 50)
    }

    /// Wireshark reads what the writer wrote: same packet count, same Apple advertisements.
    @Test func tsharkCountsTheSamePackets() throws {
        let tshark = "/usr/bin/tshark"
        try #require(FileManager.default.isExecutableFile(atPath: tshark), "tshark is installed by Tests/setup.sh")
        let source = SharedData.capture("govee-h5100.btsnoop").path
        let original = try readAll(source)
        let path = directory.path("tshark.btsnoop")
        var writer = try BTSnoopWriter(path: path)
        for (_, packet) in original.packets { try writer.write(packet) }
        #expect(try run(tshark, ["-r", path, "-T", "fields", "-e", "frame.number"]).count == original.packets.count)
        let filter = "btcommon.eir_ad.entry.company_id==0x004c"
        let apple = try run(tshark, ["-r", path, "-Y", filter, "-T", "fields", "-e", "frame.number"])
        let appleInOriginal = try run(tshark, ["-r", source, "-Y", filter, "-T", "fields", "-e", "frame.number"])
        #expect(apple.count == appleInOriginal.count && apple.count >= 99)
    }

    /// A recording never writes over a file holding bytes, even one created after any check
    /// (O_EXCL; it was O_TRUNC): the real capture there is left byte for byte. An empty file is taken.
    @Test func anExistingCaptureIsNeverWrittenOver() throws {
        let path = directory.path("earlier.btsnoop")
        try FileManager.default.copyItem(atPath: SharedData.capture("govee-h5100.btsnoop").path, toPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CaptureError.outputExists(path: path, bytes: bytes.count)) { _ = try BTSnoopWriter(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(RecordingFileCreation.refusal(path: path, flag: "--record")
                == "--record \(path) already holds \(bytes.count) bytes: a recording never writes over a file; choose another name")
        let empty = directory.path("empty.btsnoop")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        #expect(RecordingFileCreation.refusal(path: empty, flag: "--record") == nil)
        var writer = try BTSnoopWriter(path: empty)
        try writer.write(HCIPacket(timestamp: 1, direction: .controllerToHost, type: .event, payload: [0x0E, 0x00]))
        #expect(try fileSize(empty) == 16 + 24 + 3)
    }

    func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    }

    /// Runs a tool and returns its non-empty stdout lines.
    func run(_ tool: String, _ arguments: [String]) throws -> [Substring] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}
