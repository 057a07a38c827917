import Captures
import Foundation
import HCI

/// Writes a simulated run to disk: the capture (btsnoop, datalink 1002, one LE Advertising
/// Report event per received advertisement, as a controller sends them) and its ground truth
/// beside it (`TruthFileEncoder`'s NDJSON). What `beacontop simulate` does.
public enum SimulatedRecording {
    public struct Summary: Sendable, Equatable {
        public var packets: Int
        public var truthSamples: Int
        public var stays: Int
        public var duration: Double
    }

    /// `FILE.btsnoop` -> `FILE.truth.ndjson`; any other name gets `.truth.ndjson` appended.
    public static func truthPath(forCapture path: String) -> String {
        let base = path.hasSuffix(".btsnoop") ? String(path.dropLast(".btsnoop".count)) : path
        return base + ".truth.ndjson"
    }

    /// Runs `scenario` for `duration` seconds (the plan repeats when longer than one tour),
    /// writing every received advertisement to `capturePath` and a truth sample every
    /// `truthStep` seconds to `truthPath`. Without `replacing` (`beacontop simulate`) a capture file
    /// holding bytes is refused (`CaptureError.outputExists`), created with O_EXCL as `--record`'s.
    public static func write(scenario: Scenario, seed: UInt64, duration: Double, truthStep: Double,
                             capturePath: String, truthPath: String, replacing: Bool = true) throws -> Summary {
        var simulator = RadioSimulator(scenario: scenario, seed: seed, looping: true)
        var writer = try BTSnoopWriter(path: capturePath, replacing: replacing)
        while let reception = simulator.next() {
            let ad = reception.advertisement
            guard ad.timestamp - scenario.startTime <= duration else { break }
            try writer.write(AdvertisingReportEncoder.legacyReportPacket([ad], at: ad.timestamp))
        }
        let stays = GroundTruth.stays(scenario, duration: duration, looping: true)
        let header = TruthFileEncoder.header(scenario: scenario, truths: simulator.truths, seed: seed, duration: duration, stays: stays)
        let samples = try writeTruth(header: header, scenario: scenario, step: truthStep, duration: duration, to: truthPath)
        return Summary(packets: writer.packetsWritten, truthSamples: samples, stays: stays.count, duration: duration)
    }

    /// Writes the truth file a megabyte at a time and returns its sample count. It was built whole
    /// in memory first: 500 beacons over 3 hours held a 570 MB string twice, 1.2 GB resident.
    private static func writeTruth(header: String, scenario: Scenario, step: Double, duration: Double, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw CaptureError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? file.close() }
        var chunk = Data((header + "\n").utf8)
        var count = 0
        do {
            try GroundTruth.forEachSample(scenario, step: step, duration: duration, looping: true) { sample in
                chunk.append(contentsOf: (TruthFileEncoder.line(sample, scenario: scenario) + "\n").utf8)
                count += 1
                if chunk.count >= 1 << 20 {
                    try file.write(contentsOf: chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try file.write(contentsOf: chunk)
        } catch {
            throw CaptureError.writeFailed(path: path, reason: error.localizedDescription)
        }
        return count
    }
}
