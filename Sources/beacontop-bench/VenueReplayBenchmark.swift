import Foundation
import NDJSON
import Sessions

/// `beacontop-bench venue-replay FILE`: `beacontop replay FILE --json` on a venue recording, on
/// this thread with the lines discarded, for a profiler: valgrind cannot run `beacontop` itself
/// here (docs/benchmarks.md), and this is the same `VenueReplay.run`. Prints the messages read
/// (the lines of the file after its header), the NDJSON bytes made and the thread's CPU time.
enum VenueReplayBenchmark {
    static func run(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw VenuePresenceBenchmark.Usage(description: "venue-replay FILE (a *.venue.ndjson recording)") }
        var bytes = 0
        let start = threadCPUSeconds()
        let scan = try VenueReplay.run(path: path, catalog: nil) { lines in
            bytes += lines.bytes.count
            lines.removeAll()
        }
        let seconds = threadCPUSeconds() - start
        let messages = scan.view.decoder.accepted + scan.view.decoder.refusedTotal
        print("venue-replay: \(messages) messages decoded or refused, \(bytes) bytes of NDJSON, \(String(format: "%.3f", seconds)) s CPU, \(String(format: "%.0f", Double(messages) / seconds)) messages/s")
    }

    static func threadCPUSeconds() -> Double {
        var usage = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &usage)
        return Double(usage.tv_sec) + Double(usage.tv_nsec) / 1e9
    }
}
