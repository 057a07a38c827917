import Foundation
import MQTT
import PacketSources
import TestFixtures
import Testing

/// The client against a real mosquitto broker on a free loopback port.
@Suite("MQTT client against a real mosquitto", .serialized)
struct BrokerTests {
    static func client(_ url: String, id: String, cleanSession: Bool = true, will: MQTTOutgoingMessage? = nil,
                       birth: MQTTOutgoingMessage? = nil, tls: MQTTTLSFiles? = nil, bufferLimit: Int = MQTTOutgoingBuffer.defaultMessageLimit) throws -> MQTTClient {
        let options = MQTTClientOptions(
            endpoint: try MQTTEndpoint(parsing: url), clientID: id, keepAlive: 5, cleanSession: cleanSession, tls: tls, will: will, birth: birth,
            backoff: ReconnectBackoff(initial: 0.1, maximum: 0.5, factor: 2), bufferMessageLimit: bufferLimit
        )
        // The client's network thread records every event itself (EventCollector.Store), so what
        // the tests assert never waits for a task on the cooperative pool (see EventCollector).
        let store = EventCollector.Store()
        let client = try MQTTClient(options: options, handler: { store.record($0) }, onFinish: {})
        EventCollector.register(store, for: client)
        return client
    }

    /// A client subscribed to `topics`, started and connected: what a watcher, a dashboard or a
    /// backend in these tests is before the command under test runs.
    static func subscriber(_ broker: LocalMosquittoBroker, _ name: String, topics: [String], qos: MQTTQoS = .atMostOnce,
                           id: String? = nil, cleanSession: Bool = true) async throws -> (MQTTClient, EventCollector) {
        let client = try client(broker.url(), id: id ?? unique(name), cleanSession: cleanSession)
        let events = EventCollector(client)
        for topic in topics { client.subscribe(topic, qos: qos) }
        client.start()
        try await events.waitConnected()
        #expect(client.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        return (client, events)
    }

    static func unique(_ name: String) -> String { "\(name)-\(getpid())-\(UInt16.random(in: 0...UInt16.max))" }

    @Test("Publish and subscribe: QoS 0 and 1, payload bytes intact, retained flag delivered to a late subscriber")
    func roundTrip() async throws {
        let broker = try LocalMosquittoBroker()
        let subscriber = try Self.client(broker.url(), id: Self.unique("sub"))
        let received = EventCollector(subscriber)
        subscriber.subscribe("test/#", qos: .atLeastOnce)
        subscriber.start()
        try await received.waitConnected()
        #expect(subscriber.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        let publisher = try Self.client(broker.url(), id: Self.unique("pub"))
        let sent = EventCollector(publisher)
        publisher.start()
        try await sent.waitConnected()
        let binary: [UInt8] = (0...255).map { UInt8($0) }
        #expect(publisher.publish(MQTTOutgoingMessage(topic: "test/binary", payload: binary)) == .sent)
        #expect(publisher.publish(MQTTOutgoingMessage(topic: "test/qos1", text: "one", qos: .atLeastOnce)) == .sent)
        #expect(publisher.publish(MQTTOutgoingMessage(topic: "test/retained", text: "kept", qos: .atLeastOnce, retain: true)) == .sent)
        try await received.wait("three messages") { $0.messages.count >= 3 }
        #expect(received.messages(on: "test/binary").first?.payload == binary)
        #expect(received.messages(on: "test/qos1").first?.qos == .atLeastOnce)
        let late = try Self.client(broker.url(), id: Self.unique("late"))
        let lateEvents = EventCollector(late)
        late.subscribe("test/retained")
        late.start()
        try await lateEvents.wait("the retained message") { !$0.messages.isEmpty }
        #expect(lateEvents.messages.first?.retained == true)
        #expect(lateEvents.messages.first?.payload == Array("kept".utf8))
        #expect(publisher.publish(MQTTOutgoingMessage(topic: "test/+/bad", text: "x")) == .rejected("topic 'test/+/bad' holds a wildcard (+ or #)"))
        publisher.stop()
        late.stop()
        subscriber.stop()
        try await sent.wait("the stop to be reported") { $0.statuses.last == .stopped(broker: publisher.options.endpoint.description) }
        #expect(publisher.publish(MQTTOutgoingMessage(topic: "test/after", text: "x")) == .rejected("client stopped"))
    }

    @Test("Birth and will: 'online' retained on connect, 'offline' on a clean stop and, from the broker, when the connection drops")
    func statusAndWill() async throws {
        let broker = try LocalMosquittoBroker()
        let relay = try TCPRelay(to: broker.port)
        let watcher = try Self.client(broker.url(), id: Self.unique("watch"))
        let seen = EventCollector(watcher)
        watcher.subscribe("beacontop/scanners/+/status", qos: .atLeastOnce)
        watcher.start()
        try await seen.waitConnected()
        #expect(watcher.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        let topic = "beacontop/scanners/pi-1/status"
        let agent = try Self.client(
            "mqtt://127.0.0.1:\(relay.port)", id: Self.unique("agent"),
            will: MQTTOutgoingMessage(topic: topic, text: "offline", qos: .atLeastOnce, retain: true),
            birth: MQTTOutgoingMessage(topic: topic, text: "online", qos: .atLeastOnce, retain: true)
        )
        let agentEvents = EventCollector(agent)
        agent.start()
        try await seen.wait("online") { $0.messages(on: topic).last?.payload == Array("online".utf8) }
        // No DISCONNECT reaches the broker: it publishes the will. The agent may not come back
        // until then (a reconnect with the same client id would take the session over instead).
        relay.refuse(true)
        relay.cut()
        try await seen.wait("offline from the will") { $0.messages(on: topic).last?.payload == Array("offline".utf8) }
        relay.refuse(false)
        try await agentEvents.wait("the agent's reconnect") { collector in
            collector.statuses.contains { if case .lost = $0 { true } else { false } }
                && collector.statuses.filter { if case .connected = $0 { true } else { false } }.count == 2
        }
        try await seen.wait("online again") { $0.messages(on: topic).last?.payload == Array("online".utf8) }
        agent.stop()
        try await seen.wait("offline from the clean stop") { $0.messages(on: topic).last?.payload == Array("offline".utf8) }
        let late = try Self.client(broker.url(), id: Self.unique("late"))
        let lateEvents = EventCollector(late)
        late.subscribe(topic)
        late.start()
        try await lateEvents.wait("retained status") { !$0.messages.isEmpty }
        #expect(lateEvents.messages.first?.payload == Array("offline".utf8))
        #expect(lateEvents.messages.first?.retained == true)
        late.stop()
        watcher.stop()
        relay.stop()
    }

    @Test("Broker restarted mid-run: both clients reconnect, buffered messages arrive, no QoS 1 message is lost with persistent sessions")
    func restart() async throws {
        let broker = try LocalMosquittoBroker()
        let backend = try Self.client(broker.url(), id: Self.unique("backend"), cleanSession: false)
        let delivered = EventCollector(backend)
        backend.subscribe("beacontop/events/#", qos: .atLeastOnce)
        backend.start()
        try await delivered.waitConnected()
        #expect(backend.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        let view = try Self.client(broker.url(), id: Self.unique("view"), cleanSession: false)
        let viewEvents = EventCollector(view)
        view.start()
        try await viewEvents.waitConnected()
        var outcomes: [MQTTPublishOutcome] = []
        for index in 0..<600 {
            if index == 200 { broker.stop() }
            if index == 400 { try broker.restart() }
            if index == 200 {
                try await viewEvents.wait("the view to notice the broker is gone") { collector in
                    collector.statuses.contains { if case .lost = $0 { true } else { false } }
                }
            }
            outcomes.append(view.publish(MQTTOutgoingMessage(topic: "beacontop/events/visit/booth-\(index % 8)", text: "{\"n\":\(index)}", qos: .atLeastOnce)))
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(outcomes[200..<400].allSatisfy { $0 == .buffered }, "published while the broker was down")
        try await delivered.wait("all 600 events", timeout: 30) { collector in
            Set(collector.messages.map { String(decoding: $0.payload, as: UTF8.self) }).count == 600
        }
        let numbers = Set(delivered.messages.map { String(decoding: $0.payload, as: UTF8.self) })
        #expect(numbers == Set((0..<600).map { "{\"n\":\($0)}" }))
        #expect(view.statistics.dropped == 0)
        #expect(view.statistics.connects >= 2 && backend.statistics.connects >= 2)
        view.stop()
        backend.stop()
    }

    @Test("A long outage overflows the bounded buffer: the drops are counted and the newest messages go out")
    func overflow() async throws {
        let broker = try LocalMosquittoBroker()
        let port = broker.port
        broker.stop()
        let agent = try Self.client("mqtt://127.0.0.1:\(port)", id: Self.unique("agent"), bufferLimit: 50)
        let events = EventCollector(agent)
        agent.start()
        for index in 0..<200 { agent.publish(MQTTOutgoingMessage(topic: "r/\(index)", text: "x")) }
        #expect(agent.statistics.buffered == 50 && agent.statistics.dropped == 150)
        try broker.start() // the same port: the broker comes back

        try await events.waitConnected(timeout: 15)
        try await events.wait("the buffer to empty") { _ in agent.statistics.buffered == 0 }
        #expect(agent.statistics.published == 50)
        agent.stop()
    }

    @Test("Wrong password: one clear failure line naming the broker and the refusal")
    func wrongCredentials() throws {
        let broker = try LocalMosquittoBroker(users: ["agent": "right-password"])
        let client = try Self.client(broker.url(user: "agent", password: "wrong-password"), id: Self.unique("agent"))
        client.start()
        let failure = try #require(client.waitForFirstConnection(timeout: 10))
        #expect(failure.description == "mqtt://agent:***@127.0.0.1:\(broker.port): broker refused the connection: not authorised (check the user name and password)")
        client.stop()
        let good = try Self.client(broker.url(user: "agent", password: "right-password"), id: Self.unique("agent"))
        good.start()
        #expect(good.waitForFirstConnection(timeout: 10) == nil)
        good.stop()
    }

    @Test("Unreachable broker: one clear failure, then retries with back-off, each saying why")
    func unreachable() async throws {
        let port = try LocalMosquittoBroker.freePort()
        let client = try Self.client("mqtt://127.0.0.1:\(port)", id: Self.unique("agent"))
        let events = EventCollector(client)
        client.start()
        let failure = try #require(client.waitForFirstConnection(timeout: 10))
        #expect(failure.description == "mqtt://127.0.0.1:\(port): connection refused")
        try await events.wait("three attempts") { $0.statuses.count >= 3 }
        let attempts = events.statuses.compactMap { status -> (Int, Double)? in
            if case .connectFailed(_, let attempt, let reason, let retryIn) = status, reason == "connection refused" { (attempt, retryIn) } else { nil }
        }
        #expect(attempts.prefix(3).map(\.0) == [1, 2, 3])
        #expect(attempts.prefix(3).map(\.1) == [0.1, 0.2, 0.4])
        client.stop()
    }

    @Test("Options that cannot work are refused before connecting")
    func badOptions() throws {
        let plain = try MQTTEndpoint(parsing: "mqtt://127.0.0.1")
        #expect(throws: MQTTClientError("keep-alive 1 s is out of range (5 to 65535)")) {
            _ = try MQTTClient(options: MQTTClientOptions(endpoint: plain, clientID: "x", keepAlive: 1))
        }
        #expect(throws: MQTTClientError("TLS files given for mqtt://127.0.0.1; use mqtts://")) {
            _ = try MQTTClient(options: MQTTClientOptions(endpoint: plain, clientID: "x", tls: MQTTTLSFiles(caFile: "/etc/hostname")))
        }
        let secure = try MQTTEndpoint(parsing: "mqtts://127.0.0.1")
        #expect(throws: MQTTClientError("TLS CA file '/nonexistent/ca.pem' cannot be read")) {
            _ = try MQTTClient(options: MQTTClientOptions(endpoint: secure, clientID: "x", tls: MQTTTLSFiles(caFile: "/nonexistent/ca.pem")))
        }
    }
}
