import Monitor
import TerminalUI

/// `beacontop-bench render`: one frame of 500 beacons on a 200x60 screen (issue 5: 2 ms or less).
/// Reports the view model step (filter, sort, selection) and the pure render separately, then the
/// view model of the table while other screens' lists keep a `/` text of their own.
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
        narrowedLists()
    }

    /// The view model of the table while the event log (500 lines, the feed's limit) and a
    /// venue's scanner list (1,000 names, the unlisted limit) keep a `/` text of their own: each
    /// frame narrowed both, lower-casing every message, though the table draws neither.
    static func narrowedLists() {
        let beacons = SyntheticBeacons(count: 500)
        let events = (0..<500).map { index in
            MonitorEvent(time: Double(index), kind: index % 3 == 0 ? .exit : .enter, message: "Exhibit \(index) · Room \(index % 40) (cast of the original)")
        }
        let scanners = (0..<1_000).map { index in
            ScannerState(name: "node-up\(index)", room: "node-up\(index)", alive: true, declaredOnline: nil, secondsSinceHeard: 1, messages: 3,
                         offset: 0, offsetSource: "none")
        }
        var state = MonitorState(snapshot: MonitorSnapshot(title: "Benchmark hall", rows: beacons.rows, source: SourceStatus(name: "bench"),
                                                           events: events, scanners: scanners), screenSize: (200, 60))
        for (screen, text) in [("e", "room 3"), ("n", "up9")] {
            for key in [screen, "/"] + text.map(String.init) { _ = state.handle(.character(Character(key))) }
            _ = state.handle(.enter)
            _ = state.handle(.character(Character(screen)))
        }
        precondition(state.screen == .table && !state.screenFilters[.events].isEmpty && !state.screenFilters[.scanners].isEmpty)
        let clock = ContinuousClock()
        var times: [Duration] = []
        var checksum = 0
        for iteration in 0..<300 {
            let start = clock.now
            let model = state.viewModel()
            let end = clock.now
            checksum &+= model.rows.count &+ model.events.count &+ model.scanners.count
            if iteration >= 20 { times.append(end - start) }
        }
        print("  view model of the table, the log and the scanner list narrowed (500 events, 1,000 scanners): median \(ms(median(times)))  p99 \(ms(percentile(times, 0.99)))")
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
