import Foundation
import Monitor
import PacketSources
import Ranging
import Sessions
import TerminalUI

/// `beacontop-bench monitor [BEACONS [SECONDS [HZ]]]`: the real monitor (inbox, `MonitorSession`,
/// `MonitorLoop`, ncurses) in this terminal, fed live by `SyntheticSource`: BEACONS iBeacons
/// (default 100) each advertising HZ times a second (default 10), as a radio would deliver them.
/// `monitor-idle [SECONDS]` runs it on a source that never sends. After SECONDS (default: until q)
/// it prints the CPU time of the loop thread and of the whole process as a share of one core, the
/// peak resident memory and the packets the inbox dropped. The real-terminal tests drive it too.
enum MonitorLoadBenchmark {
    static func run(arguments: [String]) throws {
        let beacons = arguments.first.flatMap(Int.init) ?? 100
        let seconds = arguments.dropFirst().first.flatMap(Double.init)
        let rate = arguments.dropFirst(2).first.flatMap(Double.init) ?? 10
        try measure(SyntheticSource(beacons: beacons, rate: rate), replay: nil, seconds: seconds,
                    label: "\(beacons) beacons at \(MonitorCaptureWriter.formatRate(rate)) Hz")
    }

    static func runIdle(arguments: [String]) throws {
        let seconds = arguments.first.flatMap(Double.init)
        try measure(SilentSource(), replay: nil, seconds: seconds, label: "no packets")
    }

    static func measure(_ source: any PacketSource, replay: ReplayControl?, seconds: Double?, label: String) throws {
        let inbox = SourceInbox(capacity: 16_384, wakeThreshold: 4_096)
        let feed = MonitorFeed(
            catalog: ExhibitCatalog(title: "monitor benchmark", exhibits: []),
            status: SourceStatus(name: source.name, state: replay == nil ? .scanning : .replaying(speed: 1))
        )
        let session = MonitorSession(feed: feed, inbox: inbox, replay: replay, speed: replay == nil ? nil : .factor(1))
        try source.start(into: inbox)
        var loop = MonitorLoop(session: session, noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"])
        let wakeup = loop.wakeup
        if let seconds { DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { wakeup.requestStop() } }
        let wallStart = Date()
        let loopStart = threadCPUSeconds()
        let processStart = processCPUSeconds()
        let exit = try loop.run()
        let loopCPU = threadCPUSeconds() - loopStart
        let processCPU = processCPUSeconds() - processStart
        let wall = Date().timeIntervalSince(wallStart)
        source.stop()
        inbox.close()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("monitor: \(label), \(format(wall)) s, exit \(exit)")
        print("  loop thread CPU: \(format(loopCPU)) s = \(format(100 * loopCPU / wall))% of one core")
        print("  process CPU: \(format(processCPU)) s = \(format(100 * processCPU / wall))% of one core")
        print("  peak resident memory: \(usage.ru_maxrss / 1024) MB; packets dropped at the inbox: \(inbox.droppedPackets)")
    }

    static func threadCPUSeconds() -> Double { clockSeconds(CLOCK_THREAD_CPUTIME_ID) }
    static func processCPUSeconds() -> Double { clockSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    static func clockSeconds(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
