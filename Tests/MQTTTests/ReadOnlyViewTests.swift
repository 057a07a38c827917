import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// `--read-only`: a venue view that only looks (a technician's laptop beside the view feeding the
/// backend) against a real mosquitto. It shows the beacon in its room and decides its visit as
/// any view does, and a subscriber on everything a view publishes gets nothing from it: no
/// events, no occupancy, not even the closing exit and occupancy every view sends as it ends.
@Suite("A read-only venue view publishes nothing (real mosquitto)", .serialized)
struct ReadOnlyViewTests {
    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    static let barrierTopic = "beacontop/events/barrier"

    /// Everything a view publishes is under `beacontop/` (events, occupancy); the nodes publish
    /// under `espresense/`, so whatever the subscriber gets but the barrier came from the view.
    static func fromTheView(_ collector: EventCollector) -> [String] {
        collector.messages.filter { $0.topic != barrierTopic }.map(\.topic)
    }

    /// Once the view has ended (its client has the broker's acknowledgement of all it sent before
    /// it disconnects), anything it published is queued for the subscriber before a barrier
    /// published now (`VenueEventsCommandTests.barrier`): past it, nothing but the barrier came.
    static func expectNothingPublished(_ received: EventCollector, barrierFrom nodes: MQTTClient) async throws {
        nodes.publish(MQTTOutgoingMessage(topic: barrierTopic, text: "barrier", qos: .atLeastOnce))
        try await received.wait("the barrier") { !$0.messages(on: barrierTopic).isEmpty }
        #expect(fromTheView(received).isEmpty, "a read-only view published \(fromTheView(received))")
    }

    /// Publishes the kitchen node's reading of the beacon four times a second on a thread of its
    /// own (as `VenueMonitorTerminalTests` does: a task can be starved by blocking waits) until stopped.
    static func feedKitchen(_ nodes: MQTTClient) -> Running {
        let running = Running()
        let feeder = Thread {
            while running.value {
                nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/kitchen",
                                                  payload: VenueCommandTests.espresense(rssi: -61, distance: 1.2)))
                usleep(250_000)
            }
            running.stopped.signal()
        }
        feeder.start()
        return running
    }

    @Test("scan mqtt:// --read-only: the beacon's enter in the kitchen is printed; the broker gets no event and no occupancy from it")
    func headlessView() async throws {
        let broker = try LocalMosquittoBroker()
        let (subscriber, received) = try await BrokerTests.subscriber(broker, "everything", topics: ["beacontop/#"], qos: .atLeastOnce)
        let view = try VenueCommandTests.Command(["scan", broker.url(), "--read-only"])
        try await view.waitForOutput()
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        let running = Self.feedKitchen(nodes)
        defer { running.value = false }
        // The view decided the visit (an enter on a line) and shows the beacon in the kitchen: what
        // any view publishes at once, and its exit and occupancy at the end.
        try await view.waitForLine("the beacon's enter in the kitchen") { line in
            (line["events"] as? [[String: Any]] ?? []).contains { $0["type"] as? String == "enter" && $0["room"] as? String == "kitchen" }
        }
        try await view.waitForLine("the beacon in the kitchen") { line in
            (line["beacons"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == VenueCommandTests.beacon && $0["room"] as? String == "kitchen" }
        }
        running.value = false
        running.stopped.wait()
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        #expect(view.stderr.contains("messages, 0 dropped"), "\(view.stderr)")

        try await Self.expectNothingPublished(received, barrierFrom: nodes)
        nodes.stop()
        subscriber.stop()
    }

    @Test("monitor mqtt:// --read-only: `read-only` on the status line, the beacon in the kitchen, nothing published, not at q either")
    func monitorView() async throws {
        try TestPrerequisites.requireTmux()
        let broker = try LocalMosquittoBroker()
        let (subscriber, received) = try await BrokerTests.subscriber(broker, "everything", topics: ["beacontop/#"], qos: .atLeastOnce)
        let session = try TmuxSession(
            command: "sh -c '\(VenueCommandTests.executable) monitor \(broker.url()) --read-only; echo EXIT=$?; exec sh'",
            columns: 160, lines: 24, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        defer { session.kill() }
        try session.waitFor("No beacons heard yet")
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        let running = Self.feedKitchen(nodes)
        defer { running.value = false }
        let screen = try session.waitFor(timeout: 60, "the beacon placed in the kitchen, read-only said") { screen in
            screen.split(separator: "\n").contains { $0.contains("kitchen (kitchen)") } && screen.contains("msg/s")
        }
        let status = try #require(screen.split(separator: "\n").last { $0.contains("msg/s") })
        #expect(status.contains("scanning · read-only"), "\(status)")
        running.value = false
        running.stopped.wait()
        // q closes the open visit, which every other view publishes (exit, visit, occupancy).
        try session.send("q")
        let end = try session.waitFor("EXIT=0")
        #expect(end.contains("1 open visit closed at exit (--read-only: no exit or visit events published)"), "\(end)")

        try await Self.expectNothingPublished(received, barrierFrom: nodes)
        nodes.stop()
        subscriber.stop()
    }

    @Test("--read-only on a source that is no broker is refused, status 64: it would be ignored")
    func refusedElsewhere() async throws {
        for arguments in [["scan", "hci0", "--read-only"], ["monitor", "sim:demo/museum.yaml", "--read-only"]] {
            let run = try VenueCommandTests.Command(arguments)
            #expect(try await run.finish() == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("--read-only keeps a venue view from publishing; "), "\(arguments): \(run.stderr)")
        }
    }
}
}
