import BeaconFormats
import Captures
import Foundation
import HCI
import NDJSON
import Ranging

/// What every harness does with its input: read it the way beacontop reads a file, then push
/// whatever comes out through the rest of the data path (the sighting decoder, the NDJSON frame and
/// summary lines, ranging ticks), so a value no parser rejects cannot trap or hang further down.
public enum FuzzInput {
    /// The script harness's input as a file (the script reader takes a path; writing it is about
    /// 1% of that harness's time): one per process, rewritten each run, in /dev/shm when it
    /// exists so no disk is touched.
    public static let path: String = {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(directory)/beacontop-fuzz-\(getpid())"
    }()

    public static func write(_ bytes: UnsafeRawBufferPointer) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        var done = 0
        while done < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(written > 0, "write \(path) failed")
            done += written
        }
        close(fd)
    }

    /// Reads `file` as a capture, as decode and replay do, in one pass: each packet through the one
    /// sighting decoder, every sighting written as a decode --json frame line, tallied and ranged
    /// (ticks as NDJSON), then the summary lines and the dwell report. The reader takes the bytes in
    /// memory (CaptureReader(bytes:name:), tested to read as the file holding them): writing each
    /// input to /dev/shm and a 256 KiB read buffer per input cost about a tenth of a capture
    /// harness's time (docs/fuzzing.md).
    public static func exerciseCapture(_ file: [UInt8]) {
        guard var reader = try? CaptureReader(bytes: file, name: "fuzz-input") else { return }
        var decoder = BeaconSightingDecoder()
        var lines = JSONWriter(capacity: 1 << 12)
        var tallies = BeaconTallies()
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var ticks = JSONWriter(capacity: 1 << 12)
        var packet = HCIPacket.empty
        while true {
            do {
                guard try reader.next(into: &packet) else { break }
            } catch {
                _ = error.description
                if error.isRecoverable { continue }
                break
            }
            pipeline.advance(to: packet.timestamp) { snapshot in
                TickLineEncoder.appendLine(snapshot, to: &ticks)
                ticks.removeAll()
            }
            try? decoder.decode(packet) { sighting in
                BeaconFrameLine.append(sighting, to: &lines)
                lines.removeAll()
                tallies.add(sighting)
                pipeline.record(sighting)
            }
        }
        for tally in tallies.sorted {
            BeaconSummaryLine.append(tally, to: &lines)
            lines.removeAll()
        }
        pipeline.finish { TickLineEncoder.appendLine($0, to: &ticks) }
        _ = DwellReportRenderer.text(pipeline.dwellReport)
    }

    /// Feeds HCI packets straight into the sighting decoder, the frame line and the pipeline (the
    /// H4 harness).
    public static func exercise(packets: [HCIPacket]) {
        var decoder = BeaconSightingDecoder()
        var lines = JSONWriter(capacity: 1 << 12)
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        for packet in packets {
            pipeline.advance(to: packet.timestamp) { _ in }
            try? decoder.decode(packet) { sighting in
                BeaconFrameLine.append(sighting, to: &lines)
                lines.removeAll()
                pipeline.record(sighting)
            }
        }
        pipeline.finish { _ in }
    }
}
