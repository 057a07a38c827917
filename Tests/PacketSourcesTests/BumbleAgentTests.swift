import Foundation
import TestFixtures
import Testing

/// `beacontop scan tcp:... --publish mqtt://... --scanner NAME`, a scanner agent on a Bumble
/// controller, seen through a real mosquitto by `mosquitto_sub`: what a venue's backend sees.
@Suite("Scanner agent on a Bumble controller", .serialized)
struct BumbleAgentTests {
    /// `mosquitto_sub -v -F '%t %p'` on `filter`, its lines read from a file as they come.
    final class Subscriber {
        let pid: pid_t
        let output: URL

        init(_ broker: LocalMosquittoBroker, filter: String) throws {
            output = broker.directory.appendingPathComponent("sub-\(UUID().uuidString).log")
            guard let pid = CleanSpawn.start(
                ["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-t", filter, "-F", "%t %p"], output: output.path
            ) else { throw HarnessError(description: "cannot start mosquitto_sub") }
            self.pid = pid
        }

        /// (topic, payload as JSON) per line so far.
        var messages: [(topic: String, json: [String: Any])] {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let space = line.firstIndex(of: " ") else { return nil }
                let json = try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8)) as? [String: Any]
                return (String(line[..<space]), json ?? [:])
            }
        }

        /// Polls until `condition` holds, failing after `timeout` s: a watchdog, not a speed check.
        func wait(_ what: String, timeout: Double = 30, _ condition: ([(topic: String, json: [String: Any])]) -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(messages) {
                guard Date() < deadline else { throw HarnessError(description: "no \(what) within \(timeout) s; got \(messages.count) messages") }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }

        deinit {
            kill(pid, SIGTERM)
            _ = CleanSpawn.wait(pid)
        }
    }

    @Test("A lost dongle: the agent's telemetry goes on every 10 s of the wall clock while its radio is gone, hearing nothing, and the failed reconnects are said once")
    func telemetryThroughALostDongle() throws {
        let broker = try LocalMosquittoBroker()
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let watcher = try Subscriber(broker, filter: "beacontop/scanners/room-a/+")
        let agent = try BeacontopBinary.Running([
            "scan", "tcp:127.0.0.1:\(world.ports[0])", "--publish", broker.url(), "--scanner", "room-a", "--keep-alive", "5",
        ])
        try watcher.wait("reading") { $0.contains { $0.topic.hasSuffix("/readings") } }
        world.stop()  // the dongle pulled out: no packet comes any more, and reconnecting fails
        let lostAt = Date().timeIntervalSince1970
        // Before, the agent's clock moved only with packets: from the loss on it published nothing
        // (no telemetry, so a backend could not tell a deaf scanner from an empty room) until the
        // radio came back, and then the whole silence at once, late.
        try watcher.wait("telemetry stamped a second or more after the loss") { messages in
            messages.contains { $0.topic.hasSuffix("/telemetry") && ($0.json["t"] as? Double ?? 0) > lostAt + 1 }
        }
        let during = try #require(watcher.messages.last { $0.topic.hasSuffix("/telemetry") }?.json)
        #expect(during["advertsPerSecond"] as? Double == 0, "\(during)")
        // By 8 s after the loss the agent tried again at 0.5, 1.5, 3.5 and 7.5 s, refused each time.
        while Date().timeIntervalSince1970 < lostAt + 8 { Thread.sleep(forTimeInterval: 0.2) }
        kill(agent.process.processIdentifier, SIGTERM)
        let result = agent.wait(limit: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("lost (the other end closed the connection)"), "stderr: \(result.stderr)")
        // Said once, not once per attempt (a night without the dongle was 360 lines an hour).
        let refusals = result.stderr.split(separator: "\n").filter { $0.contains("Connection refused") }
        #expect(refusals.count == 1, "stderr: \(result.stderr)")
        #expect(refusals.first?.hasSuffix("said again only if the reason changes") == true, "stderr: \(result.stderr)")
        try watcher.wait("offline") { _ in
            let text = (try? String(contentsOf: watcher.output, encoding: .utf8)) ?? ""
            return text.hasSuffix("beacontop/scanners/room-a/status offline\n")
        }
    }
}
