import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// The visit events of the built `beacontop scan mqtt://BROKER` view against a real mosquitto: a
/// backend with a persistent session that was away gets every event the view decided (QoS 1), and
/// so does one while the broker restarts in the middle of the run (the view's client buffers and
/// reconnects); retained occupancy for a dashboard that comes later.
@Suite("Visit events from the view to a backend (QoS 1) through a real mosquitto", .serialized)
struct VenueEventsCommandTests {
    typealias Command = VenueCommandTests.Command

    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    /// An event as a comparable key: type, beacon, room and time as printed.
    static func key(_ event: [String: Any]) -> String {
        let time = (event["t"] as? Double) ?? (event["end"] as? Double) ?? -1
        return "\(event["type"] ?? "?") \(event["beacon"] ?? "?") \(event["room"] ?? "?") \(String(format: "%.3f", time))"
    }

    static func keys(ofPayloads messages: [MQTTIncomingMessage]) -> [String] {
        messages.compactMap { try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }.map(key).sorted()
    }

    /// A view line with the walk's last event: the beacon leaves the hall once its readings expire.
    static func exitsHall(_ line: [String: Any]) -> Bool {
        (line["events"] as? [[String: Any]] ?? []).contains { $0["type"] as? String == "exit" && $0["room"] as? String == "hall" }
    }

    /// Waits until a message published now on `beacontop/events/barrier` reaches `collector`'s
    /// client: mosquitto queues a client's messages in one queue, in the order it took them (the
    /// MQTT order for a topic and QoS), so every event the view published before is in by then.
    /// A barrier, not "300 ms for any more to come". Its payload is no JSON object: `keys` skips it.
    static func barrier(_ publisher: MQTTClient, _ collector: EventCollector) async throws {
        publisher.publish(MQTTOutgoingMessage(topic: "beacontop/events/barrier", text: "barrier", qos: .atLeastOnce))
        try await collector.wait("the barrier after the view's events") { !$0.messages(on: "beacontop/events/barrier").isEmpty }
    }

    /// A beacon in the kitchen, then in the hall, then gone: enter, exit and visit events in both rooms.
    static func walk(_ nodes: MQTTClient, seconds: Double, during: (Int) async throws -> Void = { _ in }) async throws {
        let steps = Int(seconds * 4)
        for step in 0..<steps {
            let inKitchen = step < steps / 2
            nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/kitchen",
                                              payload: VenueCommandTests.espresense(rssi: inKitchen ? -60 : -85, distance: inKitchen ? 1 : 12)))
            nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/hall",
                                              payload: VenueCommandTests.espresense(rssi: inKitchen ? -85 : -60, distance: inKitchen ? 12 : 1)))
            try await during(step)
            try await Task.sleep(nanoseconds: 250_000_000)
        }
    }

    @Test("A backend with a persistent session, away while the view decided, gets every event it printed; occupancy is retained")
    func lateBackend() async throws {
        let broker = try LocalMosquittoBroker()
        let backendID = BrokerTests.unique("backend")
        // The backend's session: subscribed at QoS 1, then away.
        let first = try BrokerTests.client(broker.url(), id: backendID, cleanSession: false)
        let firstEvents = EventCollector(first)
        first.subscribe("beacontop/events/#", qos: .atLeastOnce)
        first.start()
        try await firstEvents.waitConnected()
        #expect(first.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        try await Task.sleep(nanoseconds: 300_000_000)
        first.stop()

        let view = try Command(["scan", broker.url()])
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        try await view.waitForOutput()
        try await Self.walk(nodes, seconds: 9)
        // The beacon has gone: once the view has seen its readings expire (the hall's exit is on a
        // line), stop it (SIGINT). A condition, not 6 s that a loaded machine can outrun.
        try await view.waitForLine("the exit from the hall", until: Self.exitsHall)
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        let printed = view.lines.flatMap { $0["events"] as? [[String: Any]] ?? [] }.map(Self.key).sorted()
        #expect(printed.contains { $0.hasPrefix("enter") && $0.contains("kitchen") } && printed.contains { $0.hasPrefix("enter") && $0.contains("hall") },
                "the walk made no enter in both rooms: \(printed); stderr \(view.stderr)")

        let back = try BrokerTests.client(broker.url(), id: backendID, cleanSession: false)
        let backEvents = EventCollector(back)
        back.start()
        try await backEvents.wait("\(printed.count) queued events") { $0.messages.count >= printed.count }
        try await Self.barrier(nodes, backEvents)
        #expect(Self.keys(ofPayloads: backEvents.messages) == printed)
        #expect(backEvents.messages.allSatisfy { $0.qos == .atLeastOnce })

        // A dashboard that comes later reads each room's last occupancy, retained: nobody left.
        let dashboard = try BrokerTests.client(broker.url(), id: BrokerTests.unique("dashboard"))
        let board = EventCollector(dashboard)
        dashboard.subscribe("beacontop/occupancy/+")
        dashboard.start()
        try await board.wait("both rooms' occupancy") { Set($0.messages.map(\.topic)) == ["beacontop/occupancy/kitchen", "beacontop/occupancy/hall"] }
        for message in board.messages {
            #expect(message.retained)
            #expect(String(decoding: message.payload, as: UTF8.self).contains("\"count\":0"))
        }
        back.stop()
        dashboard.stop()
        nodes.stop()
    }

    @Test("A view killed with visitors present left a retained count on the broker; the next view, with nobody there, replaces it with 0")
    func staleOccupancyReplaced() async throws {
        let broker = try LocalMosquittoBroker()
        let (dashboard, board) = try await BrokerTests.subscriber(broker, "dashboard", topics: ["beacontop/occupancy/+"])
        // What a `kill -9`ed view leaves: the kitchen's last occupancy (one visitor), retained, and
        // the kitchen node's retained birth.
        let stale = #"{"room":"kitchen","count":1,"beacons":["E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"],"t":1}"#
        #expect(dashboard.publish(MQTTOutgoingMessage(topic: "beacontop/occupancy/kitchen", text: stale, qos: .atLeastOnce, retain: true)) == .sent)
        #expect(dashboard.publish(MQTTOutgoingMessage(topic: "espresense/rooms/kitchen/status", text: "online", qos: .atLeastOnce, retain: true)) == .sent)
        try await board.wait("the stale occupancy") { !$0.messages(on: "beacontop/occupancy/kitchen").isEmpty }

        let view = try Command(["scan", broker.url()])
        try await view.waitForOutput()
        try await board.wait("the kitchen's occupancy from the new view") { $0.messages(on: "beacontop/occupancy/kitchen").count >= 2 }
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        // A dashboard connecting now reads the new view's retained 0.
        let late = try BrokerTests.client(broker.url(), id: BrokerTests.unique("late"))
        let lateBoard = EventCollector(late)
        late.subscribe("beacontop/occupancy/+")
        late.start()
        try await lateBoard.wait("the retained occupancy") { !$0.messages.isEmpty }
        #expect(String(decoding: lateBoard.messages[0].payload, as: UTF8.self).contains(#""room":"kitchen","count":0"#))
        for client in [late, dashboard] { client.stop() }
    }

    @Test("The broker restarted in the middle of the run: the view reconnects, and the backend gets every event the view printed")
    func brokerRestart() async throws {
        let broker = try LocalMosquittoBroker()
        let backend = try BrokerTests.client(broker.url(), id: BrokerTests.unique("backend"), cleanSession: false)
        let backendEvents = EventCollector(backend)
        backend.subscribe("beacontop/events/#", qos: .atLeastOnce)
        backend.start()
        try await backendEvents.waitConnected()
        #expect(backend.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")

        let view = try Command(["scan", broker.url()])
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        try await view.waitForOutput()
        // Down for about two seconds while the beacon is in the hall: what the view decides then
        // (it ticks on its own clock) waits in its client's buffer.
        try await Self.walk(nodes, seconds: 12) { step in
            if step == 30 { broker.stop() }
            if step == 38 { try broker.start() }
        }
        try await view.waitForLine("the exit from the hall", until: Self.exitsHall)
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        #expect(view.stderr.contains("lost"), "the view did not notice the broker going: \(view.stderr)")
        let printed = view.lines.flatMap { $0["events"] as? [[String: Any]] ?? [] }.map(Self.key).sorted()
        #expect(printed.count >= 4, "\(printed)")
        try await backendEvents.wait("\(printed.count) events", timeout: 20) { $0.messages.count >= printed.count }
        try await Self.barrier(nodes, backendEvents)
        #expect(Self.keys(ofPayloads: backendEvents.messages) == printed)
        backend.stop()
        nodes.stop()
    }
}
}
