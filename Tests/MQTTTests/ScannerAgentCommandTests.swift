import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// `beacontop scan CAPTURE --publish mqtt://BROKER --scanner NAME`, the built binary, against a real
/// mosquitto: two agents replaying real captures feed a venue view process; every exit path
/// publishes the retained `offline`; a killed agent is declared gone by its will.
@Suite("Scanner agents (scan --publish) against a real mosquitto", .serialized)
struct ScannerAgentCommandTests {
    typealias Command = VenueCommandTests.Command

    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    static func capture(_ name: String) -> String { SharedData.capture(name).path }

    static func catalog(in directory: URL) throws -> String {
        try VenueCommandTests.catalog("""
            exhibits: []
            rooms:
              - id: room-a
              - id: room-b
            scanners:
              - id: pi-a
                room: room-a
              - id: pi-b
                room: room-b
            """, in: directory)
    }

    static let shared = "494E5445-4C4C-495F-524F-434B535F4857:20597:62207"  // in both captures
    static let onlyA = "494E5445-4C4C-495F-524F-434B535F4857:20596:25984"   // govee-h5105 only
    static let onlyB = "494E5445-4C4C-495F-524F-434B535F4857:20594:62207"   // horizon74 only

    @Test("Two agents replaying real captures feed a view: each beacon in its scanner's room, the shared one with a runner-up; a killed agent's will says offline and its beacon leaves")
    func agentsIntoView() async throws {
        let broker = try LocalMosquittoBroker()
        let (watcher, watched) = try await BrokerTests.subscriber(broker, "watcher", topics: ["beacontop/scanners/+/status", "espresense/devices/+/+"])

        let view = try Command(["scan", broker.url(), "--exhibits", try Self.catalog(in: broker.directory)])
        try await view.waitForOutput()
        // govee-h5105 holds 35 frames over 90 s, 64 s of it silent: at speed 2 agent A would fall
        // silent (or end) right when the kill is judged. Looped at speed 8 its beacons come back
        // every 11 s, so room-a is seen both before and after the kill on any machine.
        let agentA = try Command(["scan", Self.capture("govee-h5105.pcapng"), "--speed", "8", "--loop", "--publish", broker.url(), "--scanner", "pi-a", "--keep-alive", "5"])
        // horizon74 holds 11 frames over 12 s (the shared beacon once, at 9 s): played once it
        // ends, and its agent says offline on its own, before the kill. Looped at speed 4 it is
        // alive when killed (so the will is what says offline) and its beacons never fall silent.
        // horizon74's 11 beacon frames are in its first 12 s (the shared beacon once, at 9 s), then
        // 135 s of other traffic: looped over those 13 s at speed 4, B's beacons never fall silent,
        // so B is in room-b right up to the kill and its will is what ends it.
        let agentB = try Command(["scan", Self.capture("horizon74.btsnoop"), "--speed", "4", "--to", "13", "--loop", "--publish", broker.url(), "--scanner", "pi-b", "--keep-alive", "5"])
        try await watched.wait("both agents online") { collector in
            ["pi-a", "pi-b"].allSatisfy { name in collector.messages(on: "beacontop/scanners/\(name)/status").contains { $0.payload == Array("online".utf8) } }
        }
        // Once presence has placed A's and B's beacons in their rooms (what is judged below of the
        // lines before the kill), kill agent B without a chance to say goodbye: a condition, not
        // 8 s that a loaded machine can outrun.
        for (id, room) in [(Self.onlyB, "room-b"), (Self.onlyA, "room-a")] {
            try await view.waitForLine("\(id) placed in \(room)") { line in
                (line["beacons"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id && $0["room"] as? String == room }
            }
        }
        let killedAt = Date().timeIntervalSince1970
        #expect(agentB.process.isRunning, "agent B ended before the kill: the will would not be what says offline; stderr: \(agentB.stderr)")
        kill(agentB.process.processIdentifier, SIGKILL)
        try await watched.wait("pi-b's will", timeout: 15) { collector in
            collector.messages(on: "beacontop/scanners/pi-b/status").last?.payload == Array("offline".utf8)
        }
        _ = try await agentB.finish()
        #expect(agentB.process.terminationReason == .uncaughtSignal && agentB.process.terminationStatus == SIGKILL)
        // B's reading expires 4 s after its last message. A's beacons come back every 11 s and are
        // placed 3 s later, so wait for the view to place one in room-a after that, not a fixed
        // time: under load a fixed 8 s could end between two of A's bursts.
        let deadline = Date().addingTimeInterval(60)
        while !view.lines.contains(where: { line in
            (line["t"] as? Double ?? 0) > killedAt + 5
                && (line["beacons"] as? [[String: Any]] ?? []).contains { $0["room"] as? String == "room-a" && $0["scanner"] as? String == "pi-a" }
        }) {
            guard Date() < deadline else { break }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        agentA.process.terminate()
        #expect(try await agentA.finish() == 0)

        // ESPresense's topic carries the agents' beacons in the firmware's id form.
        let espresense = try #require(watched.messages(on: "espresense/devices/iBeacon:494e5445-4c4c-495f-524f-434b535f4857-20596-25984/pi-a").first)
        // The fields ESPresense's firmware sends, so mqtt_room and ESPresense Companion read it.
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(espresense.payload)) as? [String: Any])
        #expect(fields["id"] as? String == "iBeacon:494e5445-4c4c-495f-524f-434b535f4857-20596-25984")
        for key in ["mac", "rssi@1m", "rssi", "raw", "distance"] { #expect(fields[key] != nil, "no \(key) in \(fields)") }
        #expect((fields["rssi"] as? Double).map { (-110.0...0).contains($0) } == true)

        let lines = view.lines
        func beacon(_ id: String, in line: [String: Any]) -> [String: Any]? {
            (line["beacons"] as? [[String: Any]])?.first { $0["id"] as? String == id }
        }
        let whileBothRan = lines.filter { ($0["t"] as? Double ?? 0) < killedAt }
        // A beacon heard again after a silence is shown with no room until presence places it
        // (3 s of clear readings): judge the lines on which it is placed, every one of them.
        func placed(_ id: String) -> [[String: Any]] {
            whileBothRan.compactMap { beacon(id, in: $0) }.filter { $0["room"] is String }
        }
        let a = placed(Self.onlyA)
        #expect(!a.isEmpty, "A's beacon never placed; view output: \(view.stdout.prefix(2000))")
        #expect(a.allSatisfy { $0["room"] as? String == "room-a" && $0["scanner"] as? String == "pi-a" && $0["runnerUp"] is NSNull }, "\(a)")
        let b = placed(Self.onlyB)
        #expect(!b.isEmpty, "B's beacon never placed")
        #expect(b.allSatisfy { $0["room"] as? String == "room-b" && $0["scanner"] as? String == "pi-b" }, "\(b)")
        // Heard by both scanners: placed in one room with the other as runner-up (whenever both
        // captures have it at once; each has silences of its own). Judged where it is placed: a
        // line can show it heard by both while presence has not placed it yet (room null).
        let both = whileBothRan.compactMap { beacon(Self.shared, in: $0) }.filter { $0["room"] is String && $0["runnerUp"] is [String: Any] }
        let shared = try #require(both.last, "the shared beacon never had a runner-up: \(whileBothRan.compactMap { beacon(Self.shared, in: $0) })")
        let runnerUp = try #require(shared["runnerUp"] as? [String: Any])
        #expect(Set([shared["room"] as? String, runnerUp["room"] as? String]) == Set(["room-a", "room-b"]))

        // After the kill, B's beacon leaves room-b (its readings expire with the dead scanner: 4 s)
        // and is heard nowhere; A's beacons go on being placed in room-a. (Real captures have
        // silences of several seconds, in which a beacon leaves and comes back: A's are not
        // asserted at every line.)
        let events = lines.dropLast().flatMap { $0["events"] as? [[String: Any]] ?? [] }
        let atKill = try #require(whileBothRan.last)
        #expect(beacon(Self.onlyB, in: atKill)?["room"] as? String == "room-b", "B's beacon was not in room-b at the kill: \(atKill)")
        // The exit is decided after the kill; its time is B's last reading, which came before it.
        #expect(events.contains { event in
            guard event["type"] as? String == "exit", event["beacon"] as? String == Self.onlyB,
                  let decided = event["decided"] as? Double, let time = event["t"] as? Double else { return false }
            return decided > killedAt && time <= decided
        }, "no exit of B's beacon decided after the kill: \(events)")
        let afterExpiry = lines.dropLast().filter { ($0["t"] as? Double ?? 0) > killedAt + 5 }
        #expect(!afterExpiry.isEmpty)
        #expect(afterExpiry.allSatisfy { beacon(Self.onlyB, in: $0) == nil })
        #expect(afterExpiry.contains { line in
            (line["beacons"] as? [[String: Any]] ?? []).contains { $0["room"] as? String == "room-a" && $0["scanner"] as? String == "pi-a" }
        })
        watcher.stop()
    }

    @Test("Every exit path publishes the retained offline after online: --duration, SIGINT, SIGTERM, SIGHUP, the source's end, a closed output", arguments: [
        "duration", "SIGINT", "SIGTERM", "SIGHUP", "end", "closed output",
    ])
    func offlineOnEveryExit(path: String) async throws {
        let broker = try LocalMosquittoBroker()
        let name = "pi-\(path.replacingOccurrences(of: " ", with: "-"))"
        var arguments = ["scan", Self.capture("govee-h5100.btsnoop"), "--publish", broker.url(), "--scanner", name]
        switch path {
        case "duration": arguments += ["--speed", "1", "--duration", "2"]
        case "end": arguments += ["--speed", "max"]
        case "closed output": arguments += ["--speed", "4", "--json"]
        default: arguments += ["--speed", "1"]
        }
        let (watcher, watched) = try await BrokerTests.subscriber(broker, "watcher", topics: ["beacontop/scanners/\(name)/+"])
        let agent: Command
        if path == "closed output" {
            // `scan ... --json | head -c 1`: the reader goes away after the first byte.
            let script = "'\(VenueCommandTests.executable)' \(arguments.map { "'\($0)'" }.joined(separator: " ")) | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}"
            agent = try Command(["-c", script], executable: "/bin/bash")
        } else {
            agent = try Command(arguments)
        }
        try await watched.wait("online") { $0.messages(on: "beacontop/scanners/\(name)/status").contains { $0.payload == Array("online".utf8) } }
        if path.hasPrefix("SIG") {
            try await watched.wait("a reading") { !$0.messages(on: "beacontop/scanners/\(name)/readings").isEmpty }
        }
        switch path {
        case "SIGINT": kill(agent.process.processIdentifier, SIGINT)
        case "SIGTERM": kill(agent.process.processIdentifier, SIGTERM)
        case "SIGHUP": kill(agent.process.processIdentifier, SIGHUP)
        default: break
        }
        #expect(try await agent.finish() == 0, "stderr: \(agent.stderr)")
        try await watched.wait("offline") { $0.messages(on: "beacontop/scanners/\(name)/status").last?.payload == Array("offline".utf8) }
        #expect(agent.stderr.contains("published, 0 dropped (buffer full)"), "stderr: \(agent.stderr)")
        if path == "end" {
            // The whole capture went out before the goodbye: readings on both topics, telemetry.
            #expect(!watched.messages(on: "beacontop/scanners/\(name)/readings").isEmpty)
            #expect(!watched.messages(on: "beacontop/scanners/\(name)/telemetry").isEmpty)
        }
        // A late subscriber is told the scanner is offline (retained).
        let late = try BrokerTests.client(broker.url(), id: BrokerTests.unique("late"))
        let lateEvents = EventCollector(late)
        late.subscribe("beacontop/scanners/\(name)/status")
        late.start()
        try await lateEvents.wait("the retained status") { !$0.messages.isEmpty }
        #expect(lateEvents.messages.first?.payload == Array("offline".utf8))
        #expect(lateEvents.messages.first?.retained == true)
        late.stop()
        watcher.stop()
    }

    @Test("The broker restarted under a running agent: it says so once, reconnects, publishes again, drops nothing and still says offline at the end")
    func agentSurvivesBrokerRestart() async throws {
        let broker = try LocalMosquittoBroker()
        let name = "pi-restart"
        let readings = "beacontop/scanners/\(name)/readings"
        let (watcher, watched) = try await BrokerTests.subscriber(broker, "watcher", topics: ["beacontop/scanners/\(name)/+"], qos: .atLeastOnce, cleanSession: false)
        let agent = try Command([
            "scan", Self.capture("govee-h5100.btsnoop"), "--speed", "1", "--loop", "--duration", "25",
            "--publish", broker.url(), "--scanner", name, "--keep-alive", "5",
        ])
        try await watched.wait("a reading before the restart") { !$0.messages(on: readings).isEmpty }
        broker.stop()
        // The agent goes on ranging, its client buffering, and is refused at least once (said
        // below): waited for, not 3 s that a loaded machine can outrun.
        try await agent.waitForStderr("\(broker.url()): cannot connect (connection refused)", timeout: 30)
        let before = watched.messages(on: readings).count
        try broker.restart()
        try await watched.wait("readings after the restart", timeout: 30) { $0.messages(on: readings).count > before + 2 }
        #expect(try await agent.finish() == 0, "stderr: \(agent.stderr)")
        #expect(agent.stderr.contains("published, 0 dropped (buffer full)"), "stderr: \(agent.stderr)")
        // The outage is said once on stderr (a Pi's journal): the loss, the first refused attempt
        // (the broker stays down for 3 s: several are refused, each for the same reason), the return.
        let lines = agent.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("\(broker.url()): lost (") }.count == 1, "stderr: \(agent.stderr)")
        #expect(lines.filter { $0.contains("\(broker.url()): cannot connect (connection refused)") }.count == 1, "stderr: \(agent.stderr)")
        #expect(lines.filter { $0.contains("\(broker.url()): connected again after") }.count == 1, "stderr: \(agent.stderr)")
        try await watched.wait("offline after the restart") { $0.messages(on: "beacontop/scanners/\(name)/status").last?.payload == Array("offline".utf8) }
        #expect(watcher.statistics.connects >= 2)
        watcher.stop()
    }

    @Test("Telemetry every 10 s of the scan's clock, also while no beacon is heard and other devices advertise")
    func telemetryThroughABeaconlessStretch() async throws {
        // horizon74: its beacon frames in the first 12 s, then 135 s of other devices' adverts.
        let (_, telemetry) = try await Self.runToOffline(["scan", Self.capture("horizon74.btsnoop"), "--speed", "max"], scanner: "pi-quiet")
        let uptimes = telemetry.compactMap { $0["uptime"] as? Double }
        // Before, telemetry stopped once the beacons were forgotten (at 70 s) until the last tick (147 s),
        // though other devices' adverts went on to 200 s (then the capture is silent to 226 s).
        #expect(uptimes.filter { $0 > 75 && $0 < 125 }.count >= 4, "telemetry uptimes: \(uptimes)")
    }

    /// Runs an agent (`arguments` publishing to a fresh broker as `scanner`) to its end, and
    /// returns it with the telemetry a watcher saw up to its `offline`.
    static func runToOffline(_ arguments: [String], scanner name: String) async throws -> (agent: Command, telemetry: [[String: Any]]) {
        let broker = try LocalMosquittoBroker()
        let (watcher, watched) = try await BrokerTests.subscriber(broker, "watcher", topics: ["beacontop/scanners/\(name)/+"])
        let agent = try Command(arguments + ["--publish", broker.url(), "--scanner", name])
        #expect(try await agent.finish() == 0, "stderr: \(agent.stderr)")
        try await watched.wait("offline") { $0.messages(on: "beacontop/scanners/\(name)/status").last?.payload == Array("offline".utf8) }
        watcher.stop()
        let telemetry = watched.messages(on: "beacontop/scanners/\(name)/telemetry").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any]
        }
        return (agent, telemetry)
    }

    @Test("The last tick at exit is stamped at the replay's last packet, not the next second, and its telemetry's rate is over the part of a second it covers")
    func lastTickAtTheRealEnd() async throws {
        let (agent, telemetry) = try await Self.runToOffline(
            ["scan", Self.capture(Self.endCapture), "--speed", "max", "--to", Self.endAt, "--json"], scanner: "pi-end"
        )
        let ticks = agent.stdout.split(separator: "\n").compactMap { line -> (time: Double, packets: Int)? in
            guard let tick = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let time = tick["t"] as? Double else { return nil }
            let beacons = tick["beacons"] as? [[String: Any]] ?? []
            return (time, beacons.reduce(0) { $0 + ($1["packets"] as? Int ?? 0) })
        }
        try #require(ticks.count >= 2, "stdout: \(agent.stdout)")
        let last = ticks[ticks.count - 1], before = ticks[ticks.count - 2]
        // Before, the last tick was at the next whole second, after the capture's last packet.
        #expect(last.time != last.time.rounded(.down) && last.time - before.time < 1, "last ticks: \(before), \(last)")
        try #require(!telemetry.isEmpty, "no telemetry")
        // The first at the first tick, retained: it replaces at once what a run before left.
        #expect(telemetry.first?["uptime"] as? Double == 0 && telemetry.first?["t"] as? Double == ticks.first?.time, "first telemetry: \(telemetry[0])")
        for report in telemetry {
            // Each at a tick, none after the last packet (before: at 20 s, the next second after it,
            // with the adverts of 0.9 s over a whole second), its rate over the time since the tick before.
            let time = report["t"] as? Double ?? -1
            let index = try #require(ticks.firstIndex { $0.time == time }, "telemetry \(report) at no tick; last ticks: \(before), \(last)")
            let rate = index > 0 ? Double(ticks[index].packets) / (time - ticks[index - 1].time) : 0
            #expect(abs((report["advertsPerSecond"] as? Double ?? -1) - rate) <= 0.051, "telemetry: \(report), ticks: \(ticks[max(index - 1, 0)...index])")
        }
    }

    /// A replay that ends 0.9 s after a whole second where telemetry is due a second later (10 s of
    /// its clock after its first tick, at 20 s uptime).
    static let endCapture = "govee-h5100.btsnoop"
    static let endAt = "20"

    @Test("A scanner name with MQTT's '/', '+', '#' is said as its topic level, the name views show")
    func scannerNameAsTopicLevel() async throws {
        let broker = try LocalMosquittoBroker()
        let (watcher, watched) = try await BrokerTests.subscriber(broker, "watcher", topics: ["beacontop/scanners/+/status"])
        let agent = try Command(["scan", Self.capture("govee-h5100.btsnoop"), "--speed", "max", "--publish", broker.url(), "--scanner", "hall/b #2+"])
        #expect(try await agent.finish() == 0, "stderr: \(agent.stderr)")
        #expect(agent.stderr.contains("--scanner 'hall/b #2+' is 'hall_b _2_' in the topics"), "stderr: \(agent.stderr)")
        try await watched.wait("its status") { !$0.messages(on: "beacontop/scanners/hall_b _2_/status").isEmpty }
        watcher.stop()
    }

    @Test("--publish needs --scanner, a broker spec, and a source that is not a broker: usage errors before anything opens")
    func usageErrors() async throws {
        for (arguments, text) in [
            (["scan", Self.capture("govee-h5100.btsnoop"), "--publish", "mqtt://127.0.0.1:1"], "--publish needs --scanner"),
            (["scan", Self.capture("govee-h5100.btsnoop"), "--publish", "tcp:127.0.0.1:1", "--scanner", "x"], "--publish takes mqtt://"),
            (["scan", "mqtt://127.0.0.1:1", "--publish", "mqtt://127.0.0.1:1", "--scanner", "x"], "not a broker"),
            (["scan", Self.capture("govee-h5100.btsnoop"), "--scanner", "x"], "give --publish"),
            // The view refuses every message of a scanner named over 256 bytes: refused before anything opens.
            (["scan", Self.capture("govee-h5100.btsnoop"), "--publish", "mqtt://127.0.0.1:1", "--scanner", String(repeating: "n", count: 257)], "at most 256 bytes"),
        ] {
            let command = try Command(arguments)
            #expect(try await command.finish() != 0)
            #expect(command.stderr.contains(text), "\(arguments): \(command.stderr)")
        }
        let unreachable = try Command(["scan", Self.capture("govee-h5100.btsnoop"), "--publish", "mqtt://127.0.0.1:\(try LocalMosquittoBroker.freePort())", "--scanner", "x"])
        #expect(try await unreachable.finish() == 1)
        #expect(unreachable.stderr.split(separator: "\n").count == 1 && unreachable.stderr.contains("refused"), "\(unreachable.stderr)")
    }
}
}
