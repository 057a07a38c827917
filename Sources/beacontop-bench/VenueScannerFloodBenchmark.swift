import Foundation
import Monitor
import PacketSources
import TerminalUI
import Venue

/// `beacontop-bench venue-scanners [N [SECONDS]]`: a publisher inventing N scanner names (default
/// 10,000), one `espresense/rooms/<name>/status` `online` each over SECONDS (default 10) of the view's clock (a node
/// fleet that puts its uptime in its room name, or anyone on an open broker), fed to the monitor's
/// venue view (`MonitorFeed`, as `monitor mqtt://BROKER` feeds it) with no catalog. Prints the
/// scanners the view keeps, the retained occupancy messages it publishes, the process's resident
/// memory before and after, and the cost of a frame on the `n` list (the snapshot, the view model
/// and the render of an 80x24 screen), median of 20 frames. docs/venue.md "Invented scanner names".
enum VenueScannerFloodBenchmark {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap(Int.init) ?? 10_000
        let span = arguments.dropFirst().first.flatMap(Double.init) ?? 10
        let start = 1_767_225_600.0
        let rssBefore = residentMB()
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://bench", state: .scanning))
        feed.startVenue(VenueView())
        var retainedOccupancy = 0
        var deleted = 0
        func publishedRetained(_ feed: inout MonitorFeed) -> Int {
            let retained = feed.takeVenueOutbox().filter { $0.retain && $0.topic.hasPrefix("beacontop/occupancy/") }
            deleted += retained.filter(\.payload.isEmpty).count
            return retained.count
        }
        let clock = ContinuousClock()
        let feedStart = clock.now
        for index in 0..<count {
            let time = start + span * Double(index) / Double(count)
            feed.feed(BrokerMessage(topic: "espresense/rooms/node-up\(index)/status", payload: Array("online".utf8), receivedAt: time))
            retainedOccupancy += publishedRetained(&feed)
        }
        let feeding = clock.now - feedStart
        // 5 s on: a room learnt then is 5 s from its announcement; the frames below pass it.
        let end = start + span + 5
        var snapshot = feed.snapshot(at: end)
        retainedOccupancy += publishedRetained(&feed)
        var state = MonitorState(snapshot: snapshot, screenSize: (80, 24))
        _ = state.handle(.character("n"))
        var frames: [Duration] = []
        var checksum = 0
        for frame in 0..<20 {
            let begin = clock.now
            snapshot = feed.snapshot(at: end + 0.5 * Double(frame + 1))
            _ = state.update(snapshot)
            let buffer = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 24))
            frames.append(clock.now - begin)
            checksum &+= buffer.line(1).count
            retainedOccupancy += publishedRetained(&feed)
        }
        let rssAfter = residentMB()
        print("venue-scanners: \(count) invented scanner names, one `online` status each, over \(span) s")
        print("  feeding them: \(RenderBenchmark.ms(feeding)) (\((feeding / max(count, 1)).components.attoseconds / 1_000_000_000_000) µs a message)")
        print("  scanners kept: \(snapshot.scanners.count); retained occupancy messages published: \(retainedOccupancy)"
              + " (\(deleted) of them deleting a forgotten room's: \(retainedOccupancy - 2 * deleted) left on the broker)")
        print("  resident memory: \(rssBefore) MB before, \(rssAfter) MB after")
        print("  a frame of the n list (snapshot + view model + render, 80x24): median \(RenderBenchmark.ms(RenderBenchmark.median(frames)))"
              + "  max \(RenderBenchmark.ms(frames.max()!))")
        print("  malformed count on the status line: \(snapshot.source.malformedCount)")
        if checksum == 42 { print("") }
    }

    /// The process's resident set now (`/proc/self/statm`, pages), in MB.
    static func residentMB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
