import Foundation
import MQTT
import TestFixtures
import Testing

/// The suites that run the built `beacontop` against a broker, one after another: each starts
/// processes and publishes on a schedule, and several at once on two cores starve each other.
@Suite(.serialized) enum VenueCommands {}

extension VenueCommands {
/// The built `beacontop` as a venue view (`scan mqtt://BROKER`) against a real mosquitto: payloads
/// in ESPresense's firmware shape from two nodes, hostile ones beside them, and a backend
/// subscribed for visits; wrong credentials and an unreachable broker at start-up.
@Suite("beacontop scan mqtt:// against a real mosquitto", .serialized)
struct VenueCommandTests {
    static let executable = SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop").path

    init() throws {
        try TestPrerequisites.requireExecutable(Self.executable)
    }

    /// A running command with its standard output and error going to files.
    final class Command: @unchecked Sendable {
        let process = Process()
        let directory: URL
        var stdout: String { (try? String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

        init(_ arguments: [String], executable: String = VenueCommandTests.executable) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-cmd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: directory.appendingPathComponent("out").path, contents: nil)
            FileManager.default.createFile(atPath: directory.appendingPathComponent("err").path, contents: nil)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("out"))
            process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("err"))
            try process.run()
        }

        /// Waits for the process to exit (at most `timeout` s, then kills it and fails).
        func finish(timeout: Double = 60) async throws -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning {
                if Date() > deadline {
                    process.terminate()
                    throw EventCollector.Timeout(description: "the command did not exit within \(timeout) s; stderr: \(stderr)")
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            return process.terminationStatus
        }

        /// Waits until standard error holds `text` (the command says it is up, or went down).
        func waitForStderr(_ text: String, timeout: Double = 20) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !stderr.contains(text) {
                guard Date() < deadline else { throw EventCollector.Timeout(description: "no '\(text)' on stderr: \(stderr)") }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }

        /// Waits for the first line on standard output: a venue view prints one a second once it
        /// is connected and subscribed (its broker source waits for the SUBACKs before it runs).
        func waitForOutput(timeout: Double = 60) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !stdout.contains("\n") {
                guard Date() < deadline, process.isRunning else {
                    throw EventCollector.Timeout(description: "no output within \(timeout) s; stderr: \(stderr)")
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }

        /// Waits until a line of standard output satisfies `condition` (the view has read what
        /// made it: a barrier message's beacon).
        func waitForLine(_ what: String, timeout: Double = 60, until condition: ([String: Any]) -> Bool) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !lines.contains(where: condition) {
                guard Date() < deadline, process.isRunning else {
                    throw EventCollector.Timeout(description: "timed out waiting for \(what); stderr: \(stderr)")
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
        }

        /// NDJSON lines of standard output as JSON objects.
        var lines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Writes a venue catalog (`yaml`) as venue.yaml in `directory`; returns its path.
    static func catalog(_ yaml: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("venue.yaml")
        try yaml.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    static let espID = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"
    static let beacon = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"

    /// A message as ESPresense's firmware publishes it (`BleFingerprint::report`'s fields).
    static func espresense(rssi: Double, distance: Double) -> [UInt8] {
        Array(#"{"id":"\#(espID)","mac":"c01122334455","rssi@1m":-59,"rssi":\#(rssi),"raw":\#(distance),"distance":\#(distance),"var":0.1,"int":100}"#.utf8)
    }

    /// Waits until the view's subscriptions are in place: a retained probe comes back to a fresh
    /// subscriber only once the broker has it, and the view subscribed before it said it was up.
    static func publishUntilSeen(_ client: MQTTClient, _ collector: EventCollector, topic: String) async throws {
        client.publish(MQTTOutgoingMessage(topic: topic, text: "online", qos: .atLeastOnce, retain: true))
        try await collector.wait("the probe") { !$0.messages(on: topic).isEmpty }
    }

    @Test("scan mqtt:// --json: each beacon once with its room, scanner and runner-up; visits to a backend; hostile payloads counted, never printed raw")
    func viewOverBroker() async throws {
        let broker = try LocalMosquittoBroker()
        let backend = try BrokerTests.client(broker.url(), id: BrokerTests.unique("backend"), cleanSession: false)
        let backendEvents = EventCollector(backend)
        backend.subscribe("beacontop/events/#", qos: .atLeastOnce)
        backend.subscribe("beacontop/occupancy/+", qos: .atLeastOnce)
        backend.start()
        try await backendEvents.waitConnected()
        #expect(backend.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")

        let view = try Command(["scan", broker.url(), "--json"])
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        let nodeEvents = EventCollector(nodes)
        nodes.subscribe("espresense/rooms/+/status")
        nodes.start()
        try await nodeEvents.waitConnected()
        #expect(nodes.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        try await view.waitForOutput()
        try await Self.publishUntilSeen(nodes, nodeEvents, topic: "espresense/rooms/kitchen/status")
        // Five seconds: the beacon enters the kitchen after about three (the evidence), so its
        // visit, closed at the last reading when the scan ends, lasts about two.
        for _ in 0..<20 {
            nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(Self.espID)/kitchen", payload: Self.espresense(rssi: -61, distance: 1.2)))
            nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(Self.espID)/hall", payload: Self.espresense(rssi: -82, distance: 9.5)))
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        // Hostile and malformed: a raw escape sequence in a name (not JSON), bad JSON, a huge payload.
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/x/kitchen", payload: Array("{\"id\":\"\u{1B}[2J\u{1B}]0;pwned\u{07}\",\"rssi\":-50}".utf8)))
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/y/kitchen", payload: Array("{\"id\":".utf8)))
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/z/kitchen", payload: Array(repeating: UInt8(ascii: "["), count: 200_000)))
        // Valid JSON whose id decodes to an escape sequence: refused as a name, not printed.
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/w/kitchen", payload: Array(#"{"id":"\u001b[2Jx","rssi":-50}"#.utf8)))
        // A barrier, not a fixed wait: mosquitto sends one client's messages to a subscriber in
        // the order it got them (one outgoing queue a client), so once a second beacon's reading,
        // published last, is on a line, the view has judged every hostile message before it.
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/barrier/kitchen", payload: Array(
            #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-2","rssi":-70,"distance":3}"#.utf8)))
        try await view.waitForLine("the barrier's beacon on a line") { line in
            (line["beacons"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:2" }
        }
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        let lines = view.lines
        #expect(!lines.isEmpty, "no NDJSON lines; stderr: \(view.stderr)")
        let placed = lines.compactMap { ($0["beacons"] as? [[String: Any]])?.first { $0["id"] as? String == Self.beacon } }
        let inKitchen = try #require(placed.last { $0["room"] as? String == "kitchen" }, "never in the kitchen: \(view.stdout)")
        #expect(inKitchen["scanner"] as? String == "kitchen")
        #expect(inKitchen["distance"] as? Double == 1.2)
        #expect(inKitchen["rssi"] as? Double == -61)
        let runnerUp = try #require(inKitchen["runnerUp"] as? [String: Any])
        #expect(runnerUp["room"] as? String == "hall")
        #expect(runnerUp["distance"] as? Double == 9.5)
        // Each beacon once per line.
        for line in lines {
            let ids = (line["beacons"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(Set(ids).count == ids.count)
        }
        let events = lines.flatMap { $0["events"] as? [[String: Any]] ?? [] }
        #expect(events.contains { $0["type"] as? String == "enter" && $0["room"] as? String == "kitchen" })
        // The last line closes the visit (the scan ended), at the last reading from the kitchen.
        #expect(events.contains { $0["type"] as? String == "visit" && $0["room"] as? String == "kitchen" && ($0["dwell"] as? Double ?? 0) > 1 })

        // Nothing hostile reached the output; every bad message was counted.
        #expect(!view.stdout.utf8.contains(0x1B) && !view.stderr.utf8.contains(0x1B))
        #expect(view.stderr.contains("broker messages refused"), "stderr: \(view.stderr)")
        let refused = view.stderr.split(separator: "\n").first { $0.contains("refused") }.map(String.init) ?? ""
        #expect(refused.hasPrefix("beacontop: 4 broker messages refused"), "\(refused)")

        // The backend (persistent session, QoS 1) got the enter, the visit and the retained occupancy.
        try await backendEvents.wait("the visit") { !$0.messages(on: "beacontop/events/visit/kitchen").isEmpty }
        let enter = try #require(backendEvents.messages(on: "beacontop/events/enter/kitchen").first)
        #expect(enter.qos == .atLeastOnce)
        #expect(String(decoding: enter.payload, as: UTF8.self).contains("\"beacon\":\"\(Self.beacon)\""))
        #expect(!backendEvents.messages(on: "beacontop/occupancy/kitchen").isEmpty)
        backend.stop()
        nodes.stop()
    }

    @Test("Wrong credentials and an unreachable broker: one clear line on stderr, exit status 1, nothing on stdout")
    func startupFailures() async throws {
        let broker = try LocalMosquittoBroker(users: ["alice": "secret"])
        let wrong = try Command(["scan", broker.url(user: "alice", password: "wrong"), "--json", "--duration", "5"])
        #expect(try await wrong.finish() == 1)
        #expect(wrong.stdout.isEmpty)
        #expect(wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("not authorised"))
        #expect(!wrong.stderr.contains("wrong"), "the password is never shown")

        let port = try LocalMosquittoBroker.freePort()
        let unreachable = try Command(["scan", "mqtt://127.0.0.1:\(port)", "--duration", "5"])
        #expect(try await unreachable.finish() == 1)
        #expect(unreachable.stdout.isEmpty)
        #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("127.0.0.1:\(port)") && unreachable.stderr.contains("refused"))

        let monitor = try Command(["monitor", broker.url(user: "alice", password: "wrong")])
        #expect(try await monitor.finish() == 1)
        #expect(monitor.stderr.split(separator: "\n").count == 1 && monitor.stderr.contains("not authorised"), "\(monitor.stderr)")
    }
}
}
