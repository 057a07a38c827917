import Monitor
import TerminalUI

/// `beacontop-bench render`: one frame of 500 beacons on a 200x60 screen (issue 5: 2 ms or less).
/// Reports the view model step (filter, sort, selection) and the pure render separately.
enum RenderBenchmark {
    static func run() {
        var beacons = SyntheticBeacons(count: 500)
        let source = SourceStatus(name: "bench", state: .replaying(speed: 4), advertsPerSecond: 5000,
                                  recordingFile: "bench.btsnoop", replayPosition: 83, replayDuration: 600)
        var state = MonitorState(snapshot: MonitorSnapshot(title: "Benchmark hall", rows: beacons.rows, source: source), screenSize: (200, 60))
        let size = ScreenSize(columns: 200, lines: 60)
        let clock = ContinuousClock()
        var modelTimes: [Duration] = []
        var renderTimes: [Duration] = []
        var checksum = 0
        for iteration in 0..<300 {
            for index in stride(from: iteration % 7, to: 500, by: 7) { beacons.advance(index) }
            var snapshot = state.snapshot
            snapshot.rows = beacons.rows
            _ = state.update(snapshot)
            let start = clock.now
            let model = state.viewModel()
            let modelled = clock.now
            let buffer = render(model, size: size)
            let end = clock.now
            checksum &+= buffer.cells.count &+ (buffer.line(2).count)
            if iteration >= 20 {
                modelTimes.append(modelled - start)
                renderTimes.append(end - modelled)
            }
        }
        let total = zip(modelTimes, renderTimes).map { $0 + $1 }
        print("render: 500 beacons, 200x60, \(renderTimes.count) frames")
        print("  view model (filter+sort): median \(ms(median(modelTimes)))  p99 \(ms(percentile(modelTimes, 0.99)))")
        print("  render:                   median \(ms(median(renderTimes)))  p99 \(ms(percentile(renderTimes, 0.99)))")
        print("  total:                    median \(ms(median(total)))  p99 \(ms(percentile(total, 0.99)))  (target <= 2 ms)")
        if checksum == 42 { print("") }
    }

    static func median(_ values: [Duration]) -> Duration { percentile(values, 0.5) }

    static func percentile(_ values: [Duration], _ p: Double) -> Duration {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    static func ms(_ duration: Duration) -> String {
        let micro = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return "\(micro / 1000).\(String(micro % 1000 / 10).leftPadded(2)) ms"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
