import BeaconFormats
import Captures
import Foundation
import HCI
import Ranging

/// What every harness does with its input: read it the way beacontop reads a file, then push
/// whatever comes out through the rest of the data path (beacon decoding, the JSON line builder,
/// ranging ticks), so a value no parser rejects cannot trap or hang further down.
public enum FuzzInput {
    /// The harness's input as a file (the readers take paths): one per process, rewritten each
    /// run, in /dev/shm when it exists so no disk is touched.
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

    /// Reads the file at `path` as a capture, as decode and replay do, in one pass: each packet
    /// through the beacon decoder (every sighting also becomes a decode --json frame line and a
    /// tally) and through the ranging pipeline (ticks as NDJSON), then the dwell report.
    public static func exerciseCapture() {
        guard var reader = try? CaptureReader(path: path) else { return }
        var decoder = BeaconSightingDecoder()
        var line = JSONLineBuilder()
        var tallies = BeaconTallies()
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var writer = JSONWriter(capacity: 1 << 12)
        var packet = HCIPacket.empty
        while true {
            do {
                guard try reader.next(into: &packet) else { break }
            } catch {
                _ = error.description
                if error.isRecoverable { continue }
                break
            }
            try? decoder.decode(packet) { sighting in
                line.frameLine(sighting)
                tallies.add(sighting)
            }
            pipeline.feed(packet) { snapshot in
                TickLineEncoder.appendLine(snapshot, to: &writer)
                writer.removeAll()
            }
        }
        for tally in tallies.sorted { line.summaryLine(tally) }
        pipeline.finish { TickLineEncoder.appendLine($0, to: &writer) }
        _ = DwellReportRenderer.text(pipeline.dwellReport)
    }

    /// Feeds HCI packets straight into the decoders and the pipeline (the H4 harness).
    public static func exercise(packets: [HCIPacket]) {
        var decoder = BeaconSightingDecoder()
        var line = JSONLineBuilder()
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        for packet in packets {
            try? decoder.decode(packet) { line.frameLine($0) }
            pipeline.feed(packet) { _ in }
        }
        pipeline.finish { _ in }
    }
}
