import Foundation
import Monitor
import Synchronization
import TerminalUI

/// `beacontop-bench monitor [beacons] [seconds]`: the real monitor loop in this terminal, fed 100
/// synthetic beacons that each advertise at 10 Hz (issue 5: under 5% of one core). A producer thread
/// plays the ranging adapter: every 10 ms it applies the adverts received in that time and posts a
/// snapshot. Keys work as in the monitor (q quits). On exit it prints the loop thread's CPU time
/// (ncurses, state, render) and the whole process's, each as a share of one core.
enum MonitorLoadBenchmark {
    static func run(arguments: [String]) throws {
        let count = arguments.first.flatMap(Int.init) ?? 100
        let seconds = arguments.dropFirst().first.flatMap(Double.init)
        let inbox = MonitorInbox()
        let running = Atomic<Bool>(true)
        let finished = DispatchSemaphore(value: 0)
        let source = SourceStatus(name: "synthetic", state: .scanning, advertsPerSecond: Double(count * 10))
        let initial = MonitorSnapshot(title: "monitor benchmark", source: source, filterNames: ["kalman", "median"], activeFilter: "kalman")
        let producer = Thread {
            var beacons = SyntheticBeacons(count: count)
            var tick = 0
            let start = Date()
            while running.load(ordering: .relaxed) {
                // 10 Hz per beacon = count/10 adverts per 10 ms tick.
                for n in 0..<max(1, count / 10) { beacons.advance((tick * max(1, count / 10) + n) % count) }
                var snapshot = initial
                snapshot.rows = beacons.rows
                inbox.post(snapshot)
                tick += 1
                if let seconds, Date().timeIntervalSince(start) >= seconds { inbox.requestStop() }
                Thread.sleep(forTimeInterval: 0.01)
            }
            finished.signal()
        }
        producer.start()
        let wallStart = Date()
        let loopStart = threadCPUSeconds()
        var commands = 0
        var loop = MonitorLoop(initial: initial, inbox: inbox, noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"])
        let exit = try loop.run { _ in commands += 1 }
        let loopCPU = threadCPUSeconds() - loopStart
        running.store(false, ordering: .relaxed)
        // Join the producer: exiting while it is mid-way through the runtime can hang the process.
        finished.wait()
        let wall = Date().timeIntervalSince(wallStart)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let processCPU = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        print("monitor: \(count) beacons at 10 Hz for \(format(wall)) s, exit \(exit), \(commands) commands")
        print("  loop thread CPU: \(format(loopCPU)) s = \(format(100 * loopCPU / wall))% of one core")
        print("  process CPU (incl. synthetic producer): \(format(processCPU)) s = \(format(100 * processCPU / wall))% of one core")
    }

    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
