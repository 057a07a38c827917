import BeaconFormats
import Captures
import HCI
import NDJSON
import Ranging
import Sessions
#if canImport(Glibc)
import Glibc
#endif

/// `beacontop-bench replay-stages [FILE]`: where `beacontop replay FILE --json --speed max` spends
/// its time, stage by stage. Each line runs the replay loop, on one thread, up to one more stage
/// (read records; decode beacon frames; range them; tick; encode NDJSON into memory) and prints
/// its CPU time and rate, so the difference between two lines is the cost of a stage. The last
/// line is the replay as `beacontop replay` runs it, reading and decoding on a second thread
/// (`BackgroundCaptureDecoder`), by wall time. Default FILE is the 1,000,000-report file
/// `decode-file` writes; `replay-stages FILE STAGE` runs one stage only.
enum ReplayStagesBenchmark {
    enum Stage: Int, CaseIterable {
        case read, decode, record, tick, json, twoThreads

        var label: String {
            switch self {
            case .read: "read records"
            case .decode: "+ decode frames"
            case .record: "+ range (record)"
            case .tick: "+ ticks"
            case .json: "+ NDJSON"
            case .twoThreads: "two threads (wall)"
            }
        }
    }

    static func run(_ arguments: [String]) throws {
        let path = arguments.first ?? "/tmp/beacontop-bench-v2-1000000.btsnoop"
        // A second argument runs that one stage only (for a profiler).
        let only = arguments.dropFirst().first.flatMap { name in Stage.allCases.first { "\($0)" == name } }
        for stage in Stage.allCases where only == nil || only == stage {
            var best = Double.infinity
            var records = 0
            var checksum = 0
            // The two-thread replay is measured by the wall clock: its CPU time counts both cores.
            let clock = stage == .twoThreads ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID
            for _ in 0..<3 {
                let start = DecodeFileBenchmark.now(clock)
                (records, checksum) = try replay(path, through: stage)
                best = min(best, DecodeFileBenchmark.now(clock) - start)
            }
            let label = stage.label.padding(toLength: 18, withPad: " ", startingAt: 0)
            let unit = stage == .twoThreads ? "wall" : "CPU "
            print("\(label) \(String(format: "%6.1f", best * 1000)) ms \(unit)  \(String(format: "%5.2f", Double(records) / best / 1e6)) M records/s  [\(checksum)]")
        }
    }

    /// The replay loop of `CaptureReplay.run`, stopped after `stage` (the last stage calls it). One function per stage, so
    /// no counter is captured by two closures (the compiler then boxes it and checks exclusivity
    /// at run time, which the real loop never does).
    static func replay(_ path: String, through stage: Stage) throws -> (records: Int, checksum: Int) {
        switch stage {
        case .read: try read(path)
        case .decode: try decode(path)
        case .record: try range(path, ticks: false, json: false)
        case .tick: try range(path, ticks: true, json: false)
        case .json: try range(path, ticks: true, json: true)
        case .twoThreads: try rangeWithBackgroundDecoding(path)
        }
    }

    static func read(_ path: String) throws -> (records: Int, checksum: Int) {
        var reader = try CaptureReader(path: path)
        var checksum = 0
        var packet = HCIPacket.empty
        while try reader.next(into: &packet) { checksum &+= packet.payload.count }
        return (reader.recordCount, checksum)
    }

    static func decode(_ path: String) throws -> (records: Int, checksum: Int) {
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var checksum = 0
        var packet = HCIPacket.empty
        while try reader.next(into: &packet) {
            try decoder.decode(packet) { sighting in checksum &+= Int(sighting.rssi ?? 0) }
        }
        return (reader.recordCount, checksum)
    }

    static func range(_ path: String, ticks: Bool, json: Bool) throws -> (records: Int, checksum: Int) {
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var writer = JSONWriter(capacity: 1 << 16)
        var bytes = 0
        var packet = HCIPacket.empty
        while try reader.next(into: &packet) {
            if ticks {
                pipeline.advance(to: packet.timestamp) { snapshot in
                    if json {
                        TickLineEncoder.appendLine(snapshot, to: &writer)
                        bytes &+= writer.bytes.count
                        writer.removeAll()
                    }
                }
            }
            try decoder.decode(packet) { pipeline.record($0) }
        }
        if ticks { pipeline.finish { _ in } }
        return (reader.recordCount, bytes &+ pipeline.beaconReports)
    }

    /// `beacontop replay`'s own loop (`CaptureReplay`): batches from the decoding thread, ranged and
    /// encoded here. Its summary line goes to standard error.
    static func rangeWithBackgroundDecoding(_ path: String) throws -> (records: Int, checksum: Int) {
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var writer = JSONWriter(capacity: 1 << 16)
        var bytes = 0
        let outcome = CaptureReplay.run(path: path, pipeline: &pipeline) { snapshot in
            TickLineEncoder.appendLine(snapshot, to: &writer)
            bytes &+= writer.bytes.count
            writer.removeAll()
        }
        if let error = outcome.cannotRead ?? outcome.stoppedBy { throw error }
        return (outcome.records, bytes &+ pipeline.beaconReports)
    }
}
