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
        let samples = GroundTruth.samples(scenario, step: truthStep, duration: duration, looping: true)
        var text = TruthFileEncoder.header(scenario: scenario, truths: simulator.truths, seed: seed,
                                           duration: duration, stays: stays) + "\n"
        for sample in samples { text += TruthFileEncoder.line(sample, scenario: scenario) + "\n" }
        do {
            try text.write(toFile: truthPath, atomically: true, encoding: .utf8)
        } catch {
            throw CaptureError.writeFailed(path: truthPath, reason: error.localizedDescription)
        }
        return Summary(packets: writer.packetsWritten, truthSamples: samples.count, stays: stays.count, duration: duration)
    }
}
