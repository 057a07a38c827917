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
            ) else { throw HarnessError(description: "cannot start /usr/bin/mosquitto_sub (Debian's mosquitto-clients, which bash Tests/setup.sh installs)") }
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
        // Its status stays online (the agent and its broker link are up); telemetry says the radio is lost, and why.
        #expect(during["radio"] as? String == "lost", "\(during)")
        #expect((during["radioReason"] as? String)?.contains("closed") == true, "\(during)")
        // A view or backend subscribing now learns it at once, not at the next telemetry (up to
        // 10 s): the broker holds the last telemetry retained (`--retained-only` takes no other).
        let retained = try LocalMosquittoBroker.run([
            "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-t", "beacontop/scanners/room-a/telemetry",
            "--retained-only", "-C", "1", "-W", "10",
        ])
        let held = try #require(try? JSONSerialization.jsonObject(with: Data(retained.utf8)) as? [String: Any], "no retained telemetry: '\(retained)'")
        #expect(held["radio"] as? String == "lost", "retained telemetry: \(retained)")
        // No reading after the loss: ranging keeps the beacons unstale for 5 s after their last
        // packet, and each reading published then was taken by views as heard now (to lostAt + 4.5).
        let late = watcher.messages.filter { $0.topic.hasSuffix("/readings") && ($0.json["t"] as? Double ?? 0) > lostAt + 2 }
        #expect(late.isEmpty, "readings published after the radio was lost: \(late.map(\.json))")
        // By 8 s after the loss the agent tried again at 0.5 s and every second since, refused each time.
        while Date().timeIntervalSince1970 < lostAt + 8 { Thread.sleep(forTimeInterval: 0.2) }
        kill(agent.process.processIdentifier, SIGTERM)
        let result = agent.wait(limit: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("lost (the other end closed the connection)"), "stderr: \(result.stderr)")
        // Said once, not once per attempt (a night without the dongle would be 3,600 lines an hour).
        let refusals = result.stderr.split(separator: "\n").filter { $0.contains("Connection refused") }
        #expect(refusals.count == 1, "stderr: \(result.stderr)")
        #expect(refusals.first?.hasSuffix("said again only if the reason changes") == true, "stderr: \(result.stderr)")
        try watcher.wait("offline") { _ in
            let text = (try? String(contentsOf: watcher.output, encoding: .utf8)) ?? ""
            return text.hasSuffix("beacontop/scanners/room-a/status offline\n")
        }
    }

    /// The `scan mqtt://` view's NDJSON lines so far (docs/formats.md "NDJSON venue lines").
    static func viewLines(_ view: BeacontopBinary.Running) -> [[String: Any]] {
        let text = (try? String(contentsOf: view.out, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func waitFor(_ what: String, timeout: Double = 40, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw HarnessError(description: "no \(what) within \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    @Test("Readings that waited out a broker outage longer than a view's reading lifetime are dropped at the flush and counted: no view sees the departed beacon again; the visit still arrives")
    func staleReadingsDroppedAfterAnOutage() throws {
        let broker = try LocalMosquittoBroker()
        let relay = try TCPRelay(to: broker.port)  // the agent's own link to the broker, cut at will
        defer { relay.stop() }
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let backend = try Subscriber(broker, filter: "beacontop/events/#")
        let view = try BeacontopBinary.Running(["scan", broker.url(), "--json"])
        defer { _ = view.wait(limit: 0) }
        let agent = try BeacontopBinary.Running([
            "scan", "tcp:127.0.0.1:\(world.ports[0])", "--publish", "mqtt://127.0.0.1:\(relay.port)", "--scanner", "room-a", "--keep-alive", "5",
        ])
        let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"
        try backend.wait("the beacon's enter") { $0.contains { $0.topic == "beacontop/events/enter/room-a" && $0.json["beacon"] as? String == beacon } }
        // The agent loses its broker (the view keeps its own), and the beacon leaves; the radio
        // stays, so the agent goes on ranging it (unstale for 5 s) and buffers its readings.
        relay.refuse(true)
        relay.cut()
        // Silenced once the agent knows: readings of the packets it hears until then are buffered
        // (silenced at once, a loaded agent that noticed the cut late buffered none, and there was
        // nothing stale to drop: seen once with other suites running).
        try Self.waitFor("the agent's loss of its broker") { agent.stderrText.contains(": lost (") }
        // Then two of the agent's own once-a-second ticks with the beacon still sending, so at least
        // one reading from packets heard after the loss is buffered: silenced as soon as the loss
        // showed, a tick that had just been published left nothing to buffer (seen once beside the
        // tmux tours: no "stale readings dropped"). The agent prints nothing to wait on while it
        // publishes, so this lets its clock run, as the MQTT suites' reading lifetimes do.
        Thread.sleep(forTimeInterval: 2)
        try world.silenceAdvertisers()
        let silentAt = Date()
        // The visit arrives whole (the will said room-a offline, so the view closed it at once).
        try backend.wait("the beacon's visit") { $0.contains { $0.topic == "beacontop/events/visit/room-a" && $0.json["beacon"] as? String == beacon } }
        // Every reading the agent buffered is now older than a view's 4 s (its ticks run 0.5 s
        // behind the wall clock); then the broker is reachable again.
        while Date() < silentAt.addingTimeInterval(6) { Thread.sleep(forTimeInterval: 0.1) }
        relay.refuse(false)
        try Self.waitFor("the agent's reconnection") { agent.stderrText.contains("connected again") }
        let back = Date().timeIntervalSince1970
        // The view's lines for two seconds past the return: a reading flushed then would be live
        // in them (a view takes a reading as heard when it arrives), and its beacon listed.
        try Self.waitFor("the view's line 2 s after the agent's return") { Self.viewLines(view).contains { ($0["t"] as? Double ?? 0) >= back + 2 } }
        let after = Self.viewLines(view).filter { ($0["t"] as? Double ?? 0) >= back - 1 }
        let listed = after.filter { ($0["beacons"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == beacon } }
        #expect(listed.isEmpty, "the departed beacon was live again in the view after the agent's return: \(listed)")
        #expect(backend.messages.filter { $0.topic == "beacontop/events/enter/room-a" && $0.json["beacon"] as? String == beacon }.count == 1,
                "\(backend.messages.map(\.topic))")
        kill(agent.process.processIdentifier, SIGTERM)
        let result = agent.wait(limit: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let closing = result.stderr.split(separator: "\n").first { $0.contains(" published, ") } ?? ""
        #expect(closing.contains("stale readings dropped (they waited for the broker past a view's 4 s)"), "stderr: \(result.stderr)")
        // The return said how many it dropped then: all of them, the only outage.
        let dropped = closing.split(separator: ", ").first { $0.hasSuffix(" stale readings dropped (they waited for the broker past a view's 4 s)") }?
            .split(separator: " ").first.flatMap { Int($0) } ?? 0
        let returned = result.stderr.split(separator: "\n").first { $0.contains("connected again") } ?? ""
        #expect(dropped > 0 && returned.hasSuffix("; the messages that waited are going out, \(dropped) stale readings dropped (they expired while they waited)"),
                "stderr: \(result.stderr)")
    }

    @Test("A lost dongle under an agent: the venue monitor's scanner list shows 'no radio' (online, hearing nothing) and the reason in the event log; the dongle back, online again")
    func radioLostInTheMonitor() throws {
        try TestPrerequisites.requireTmux()
        let broker = try LocalMosquittoBroker()
        var world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let port = world.ports[0]
        let executable = try BeacontopBinary.url.path
        let session = try TmuxSession(
            command: "sh -c '\(executable) monitor \(broker.url()); echo EXIT=$?; exec sh'",
            columns: 100, lines: 24, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        defer { session.kill() }
        try session.waitFor("No beacons heard yet", timeout: 30)
        let agent = try BeacontopBinary.Running([
            "scan", "tcp:127.0.0.1:\(port)", "--publish", broker.url(), "--scanner", "room-a",
        ])
        defer { _ = agent.wait(limit: 0) }
        try session.send("n")
        func roomA(_ screen: String) -> Substring? { screen.split(separator: "\n").first { $0.hasPrefix(" room-a") } }
        _ = try session.waitFor(timeout: 40, "room-a online in the scanner list") { roomA($0)?.contains("online") == true }
        world.stop()  // the dongle pulled out
        let lost = try session.waitFor(timeout: 20, "room-a's radio lost in the scanner list") { roomA($0)?.contains("no radio ") == true }
        #expect(!lost.contains("offline") && !lost.contains("silent"), "\(lost)")
        try session.send("e")
        _ = try session.waitFor(timeout: 10, "the radio-lost line in the event log") { $0.contains("scanner room-a radio lost (") }
        try session.send("Escape")
        try session.send("n")
        world = try BumbleWorld(controllers: 1, ports: [port])  // plugged in again: the agent reconnects and scans
        _ = try session.waitFor(timeout: 60, "room-a online again") { roomA($0)?.contains("online") == true }
        try session.send("q")
        _ = try session.waitFor("EXIT=0", timeout: 20)
    }

    @Test("A beacon that leaves: its visit ends at its last packet, not 5 s later (the agent repeated readings without packets while ranging kept the beacon unstale)")
    func visitEndsAtTheLastPacket() throws {
        let broker = try LocalMosquittoBroker()
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let view = try BeacontopBinary.Running(["scan", broker.url(), "--json"])
        defer { _ = view.wait(limit: 0) }
        let agent = try BeacontopBinary.Running([
            "scan", "tcp:127.0.0.1:\(world.ports[0])", "--publish", broker.url(), "--scanner", "room-a",
        ])
        defer { _ = agent.wait(limit: 0) }
        let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"
        func event(_ type: String) -> [String: Any]? {
            Self.viewLines(view).lazy.flatMap { $0["events"] as? [[String: Any]] ?? [] }
                .first { $0["type"] as? String == type && $0["beacon"] as? String == beacon }
        }
        try Self.waitFor("the beacon's enter in the view") { event("enter") != nil }
        try world.silenceAdvertisers()  // the beacon leaves; the radio stays
        let silentAt = Date().timeIntervalSince1970
        try Self.waitFor("the beacon's exit in the view") { event("exit") != nil }
        let exit = try #require(event("exit"))
        let end = try #require(exit["t"] as? Double)
        // The exit's time is the room's last reading's arrival: the last packet's tick (1 s, run
        // 0.5 s behind the wall clock) and the delivery. Repeats without packets put it at +6 s.
        #expect(end < silentAt + 3, "the visit ended \(end - silentAt) s after the beacon's last packet")
    }
}
