import Foundation
import MQTT
import Synchronization

/// Collects a client's events on a task of its own, so a test can wait for what it expects.
/// Waiting polls every 10 ms up to a timeout: synchronisation with a broker, not a speed check.
final class EventCollector: Sendable {
    private final class Store: Sendable {
        let events = Mutex<[MQTTClientEvent]>([])
    }

    private let store = Store()

    init(_ client: MQTTClient) {
        let stream = client.events
        Task { [store] in
            for await event in stream { store.events.withLock { $0.append(event) } }
        }
    }

    var events: [MQTTClientEvent] { store.events.withLock { $0 } }

    var messages: [MQTTIncomingMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    var statuses: [MQTTClientStatus] {
        events.compactMap { if case .status(let status) = $0 { status } else { nil } }
    }

    func messages(on topic: String) -> [MQTTIncomingMessage] { messages.filter { $0.topic == topic } }

    /// Waits until `condition` holds; throws with what arrived when `timeout` seconds pass.
    func wait(_ what: String, timeout: Double = 10, until condition: (EventCollector) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            guard Date() < deadline else {
                throw Timeout(description: "timed out waiting for \(what); statuses: \(statuses.map(\.description)); \(messages.count) messages")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    func waitConnected(count: Int = 1, timeout: Double = 10) async throws {
        try await wait("\(count) connection(s)", timeout: timeout) { collector in
            collector.statuses.filter { if case .connected = $0 { true } else { false } }.count >= count
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }
}
