import BeaconFormats
import Foundation
import HCI
import MQTT
import Ranging
import TestFixtures
import Testing
import Venue

extension MQTTOutgoingMessage {
    init(_ venue: VenueOutgoing) {
        self.init(topic: venue.topic, payload: venue.payload, qos: venue.atLeastOnce ? .atLeastOnce : .atMostOnce, retain: venue.retain)
    }
}

/// Both venue formats through a real mosquitto: an ESP32 node's message (the firmware's shape) and
/// a beacontop agent's, read by a venue view that decides presence and publishes visits to a
/// backend; and hostile payloads, counted and survived.
@Suite("Venue messages through a real mosquitto", .serialized)
struct VenueOverBrokerTests {
    static let topics = VenueTopics(prefix: "expo")

    static func reading(rssi: Int) -> BeaconReading {
        BeaconReading(
            identity: .iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1),
            address: BDAddress("C0:11:22:33:44:55")!, rssi: rssi, filteredRSSI: Double(rssi), accuracy: 1.5, accuracyRange: 1.2...1.9,
            proximity: .near, measuredPower: ResolvedMeasuredPower(dBm: -59, source: .frame, frameValue: -59), pathLossExponent: 2,
            packets: 1, totalPackets: 10, packetsPerSecond: 10, advertisingInterval: 0.1, firstSeen: 0, lastSeen: 1, isStale: false, exhibit: nil
        )
    }

    @Test("An ESPresense node and a beacontop agent feed one view; presence, visit events (QoS 1) and retained occupancy reach a backend")
    func venueRoundTrip() async throws {
        let broker = try LocalMosquittoBroker()
        let view = try BrokerTests.client(broker.url(prefix: "expo"), id: BrokerTests.unique("view"))
        let viewEvents = EventCollector(view)
        for filter in Self.topics.viewSubscriptions { view.subscribe(filter) }
        view.start()
        try await viewEvents.waitConnected()
        #expect(view.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        let backend = try BrokerTests.client(broker.url(prefix: "expo"), id: BrokerTests.unique("backend"), cleanSession: false)
        let backendEvents = EventCollector(backend)
        for filter in Self.topics.eventSubscriptions { backend.subscribe(filter, qos: .atLeastOnce) }
        backend.start()
        try await backendEvents.waitConnected()
        #expect(backend.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")

        let start = Date().timeIntervalSince1970
        var scanner = ScannerAgent(scanner: "pi-lobby", topics: Self.topics, startedAt: start)
        let agent = try BrokerTests.client(broker.url(), id: BrokerTests.unique("agent"),
                                           will: MQTTOutgoingMessage(scanner.will), birth: MQTTOutgoingMessage(scanner.birth))
        let node = try BrokerTests.client(broker.url(), id: BrokerTests.unique("esp32"))
        agent.start()
        node.start()
        #expect(agent.waitForFirstConnection(timeout: 10) == nil && node.waitForFirstConnection(timeout: 10) == nil)

        // The beacon is 1.5 m from the agent in the lobby and far from the ESP32 node in the cafe.
        // The agent ranges at 4 Hz and publishes what its policy says is due (once a second). Each
        // step's messages go through the broker before the view takes them in at the step's time,
        // so presence sees the schedule, not how fast a loaded machine ran the test.
        let espID = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"
        let nodePayload = Array(#"{"mac":"c01122334455","id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","rssi@1m":-59,"rssi":-84.00,"rxAdj":0,"rssiVar":6.10,"distance":9.80,"var":2.10,"int":101}"#.utf8)
        var venue = VenueView(catalog: ExhibitCatalog(exhibits: [], rooms: [VenueRoom(id: "lobby"), VenueRoom(id: "cafe")],
                                                      scanners: [VenueScanner(id: "pi-lobby", room: "lobby"), VenueScanner(id: "cafe", room: "cafe")]),
                              topics: Self.topics)
        var formats: Set<String> = []
        var expected = 1 // the agent's birth
        var processed = 0
        for step in 0..<24 {
            let time = start + Double(step) * 0.25
            var reading = Self.reading(rssi: -63)
            reading.lastSeen = time  // heard at each tick: the agent publishes only on new packets
            let snapshot = RangingSnapshot(time: time, beacons: [reading], nearest: nil, events: [])
            for message in scanner.messages(for: snapshot) {
                #expect(agent.publish(MQTTOutgoingMessage(message)) == .sent)
                expected += 1
            }
            node.publish(MQTTOutgoingMessage(topic: Self.topics.espresenseDevice(id: espID, scanner: "cafe"), payload: nodePayload))
            expected += 1
            try await viewEvents.wait("step \(step)'s messages") { $0.messages.count >= expected }
            let arrived = viewEvents.messages
            for message in arrived[processed...] {
                if case .reading(let reading)? = try? VenueMessageDecoder.input(topic: message.topic, payload: message.payload, receivedAt: 0, topics: Self.topics) {
                    formats.insert("\(reading.format.rawValue) from \(reading.scanner)")
                    #expect(reading.beacon == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1")
                }
                for outgoing in venue.receive(topic: message.topic, payload: message.payload, at: time + 0.01) {
                    view.publish(MQTTOutgoingMessage(outgoing))
                }
            }
            processed = arrived.count
        }
        #expect(expected == 1 + 24 + 2 * 6, "the agent published both formats once a second for 6 s")
        #expect(venue.decoder.refusedTotal == 0)
        #expect(formats == ["beacontop from pi-lobby", "espresense from pi-lobby", "espresense from cafe"])
        #expect(venue.presence.room(of: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1") == "lobby")
        #expect(venue.presence.scanners.scanners["pi-lobby"]?.online == true, "the agent's retained birth")

        try await backendEvents.wait("the enter event and the occupancy") { $0.messages.count >= 2 }
        let enter = try #require(backendEvents.messages(on: "expo/beacontop/events/enter/lobby").first)
        #expect(enter.qos == .atLeastOnce)
        let event = try VisitEvent(json: enter.payload)
        #expect(event.kind == .enter && event.room == "lobby" && event.beacon == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1")
        let late = try BrokerTests.client(broker.url(prefix: "expo"), id: BrokerTests.unique("dashboard"))
        let lateEvents = EventCollector(late)
        late.subscribe(Self.topics.occupancy(room: "lobby"))
        late.start()
        try await lateEvents.wait("retained occupancy") { !$0.messages.isEmpty }
        #expect(String(decoding: lateEvents.messages[0].payload, as: UTF8.self).contains(#""room":"lobby","count":1,"beacons":["E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"]"#))
        for client in [late, agent, node, backend, view] { client.stop() }
    }

    @Test("Hostile payloads through the broker: bad JSON, a 2 MB message, escape sequences in names and topics; counted, and the next good message still reads")
    func hostile() async throws {
        let broker = try LocalMosquittoBroker()
        let view = try BrokerTests.client(broker.url(), id: BrokerTests.unique("view"))
        let viewEvents = EventCollector(view)
        for filter in VenueTopics().viewSubscriptions { view.subscribe(filter) }
        view.start()
        try await viewEvents.waitConnected()
        #expect(view.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        let attacker = try BrokerTests.client(broker.url(), id: BrokerTests.unique("attacker"))
        attacker.start()
        #expect(attacker.waitForFirstConnection(timeout: 10) == nil)
        let device = "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/"
        let payloads: [(String, [UInt8])] = [
            (device + "kitchen", Array("{\"id\":".utf8)),
            (device + "kitchen", [UInt8](repeating: 0x7B, count: 2 << 20)),
            (device + "kitchen", Array(#"{"id":"\u001b]0;owned\u0007","rssi":-60}"#.utf8)),
            ("beacontop/scanners/pi/readings", Array(#"{"scanner":"pi","t":1,"beacon":{"id":"a\u009b","rssi":-60}}"#.utf8)),
            ("beacontop/scanners/pi/telemetry", Array("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".utf8)),
            (device + "kitchen", Array(#"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","rssi":-61}"#.utf8)),
        ]
        for (topic, payload) in payloads {
            #expect(attacker.publish(MQTTOutgoingMessage(topic: topic, payload: payload)) == .sent)
        }
        // Escape sequences in topics never reach a subscriber: libmosquitto and the broker refuse
        // control characters in topics (the decoder refuses them too: VenueMessageTests.hostile).
        for topic in [device + "kitchen\u{1B}[2J\u{1B}[H", "beacontop/scanners/\u{9B}31m/status"] {
            #expect(attacker.publish(MQTTOutgoingMessage(topic: topic, text: "online")) == .rejected("topic holds a control character"))
        }
        try await viewEvents.wait("all \(payloads.count) messages") { $0.messages.count >= payloads.count }
        var decoder = VenueMessageDecoder()
        var good: [VenueInput] = []
        for message in viewEvents.messages {
            if let input = decoder.decode(topic: message.topic, payload: message.payload, receivedAt: message.receivedAt) { good.append(input) }
        }
        #expect(decoder.refused == ["malformed JSON": 2, "oversized": 1, "wrong shape": 2])
        #expect(good.count == 1)
        if case .reading(let reading) = good.first {
            #expect(reading.beacon == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1" && reading.scanner == "kitchen" && reading.rssi == -61)
        } else {
            Issue.record("the good message after the hostile ones was not read")
        }
        attacker.stop()
        view.stop()
    }
}
