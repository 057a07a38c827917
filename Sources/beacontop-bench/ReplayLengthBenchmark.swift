import Captures
import Foundation
import PacketSources
import Sessions

/// `beacontop-bench replay-length FILE`: what the monitor's status line pays for a replay's length
/// (`CaptureClock.replayLength`, or `VenueRecordingReader.span` on a venue recording), on this thread, for
/// callgrind and for CPU time beside `replay-stages`. Prints the length and the thread's CPU time.
enum ReplayLengthBenchmark {
    static func run(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw VenuePresenceBenchmark.Usage(description: "replay-length FILE") }
        let start = VenueReplayBenchmark.threadCPUSeconds()
        let length = VenueRecording.looksLikeRecording(path: path) ? VenueRecordingReader.span(path: path) : CaptureClock.replayLength(path: path)
        let seconds = VenueReplayBenchmark.threadCPUSeconds() - start
        print("replay-length: \(length.map { String(format: "%.6f s", $0) } ?? "unknown"), \(String(format: "%.4f", seconds)) s CPU")
    }
}
