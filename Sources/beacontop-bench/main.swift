// beacontop-bench NAME [ARGS]: release-build benchmarks (docs/benchmarks.md).
// Run with `swift build -c release --product beacontop-bench && .build/release/beacontop-bench NAME`.
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
do {
    switch arguments.first {
    case "decode-events": DecodeEventsBenchmark.run(rest)
    case "decode-file": try DecodeFileBenchmark.run(rest[...])
    case "ranging": RangingBenchmark.run(arguments: rest)
    case "render": RenderBenchmark.run()
    case "monitor": try MonitorLoadBenchmark.run(arguments: rest)
    case "monitor-idle": try MonitorLoadBenchmark.runIdle(arguments: rest)
    case "monitor-capture": try MonitorCaptureWriter.run(rest)
    case "simulate": SimulateBenchmark.run(rest)
    case "h4-framer": H4FramerBenchmark.run(rest)
    case "replay-stages": try ReplayStagesBenchmark.run(rest)
    case "replay-length": try ReplayLengthBenchmark.run(rest)
    case "ranging-eval": try RangingEvaluationBenchmark.run(rest)
    case "posterior-table": PosteriorTableBenchmark.run(rest)
    case "survey": SurveyBenchmark.run(rest)
    case "venue-presence": try VenuePresenceBenchmark.run(rest)
    case "venue-replay": try VenueReplayBenchmark.run(rest)
    case "venue": try VenueLoadBenchmark.run(rest)
    case "venue-subscriber": try VenueLoadBenchmark.subscriber(rest)
    case "venue-scanners": VenueScannerFloodBenchmark.run(rest)
    default:
        print("usage: beacontop-bench decode-events|decode-file|ranging|render|monitor|monitor-idle|monitor-capture|simulate|h4-framer|replay-stages|replay-length|ranging-eval|posterior-table|survey|venue-presence|venue|venue-scanners [ARGS]")
    }
} catch {
    print("\(arguments.first ?? ""): \(error)")
    exit(1)
}
