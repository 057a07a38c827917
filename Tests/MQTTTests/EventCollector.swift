import Foundation
import MQTT
import Synchronization

/// A client's events as the test sees them, recorded on the client's own network thread (the
/// client is made with a handler by `BrokerTests.client`), so a test can wait for what it expects.
///
/// Why not a task reading `client.events`: the `BrokerTests.roundTrip` flake ("statuses:
/// connected; 0 messages" after a long wait, in a full run under heavy load, never alone). The
/// connect/subscribe sequence of `MQTTConnectionLoop` subscribes on the network thread right after
/// the CONNACK, under the same lock as `subscribe()`, before the `connected` status goes out; a
/// retained message can only follow. What the symptom fits is the test's own collector: a task
/// on the cooperative pool (as wide as the cores, 2 here), starved while other suites block pool
/// threads (`Process.waitUntilExit`, `usleep` loops, synchronous waits), so the messages sat in the
/// stream unread while the deadline passed. Recorded on the network thread, a message that
/// arrived is seen whenever the waiting task gets to look; a message that never arrived still fails.
/// Waiting polls every 10 ms up to a timeout (30 s by default): synchronisation with a broker, not a
/// speed check; CI runs these beside the TCG VM suite on two cores, where 10 s was once too short.
final class EventCollector: Sendable {
    final class Store: Sendable {
        let events = Mutex<[MQTTClientEvent]>([])

        func record(_ event: MQTTClientEvent) -> Bool {
            events.withLock { $0.append(event) }
            return true
        }
    }

    private static let stores = Mutex<[ObjectIdentifier: Store]>([:])
    private let store: Store

    static func register(_ store: Store, for client: MQTTClient) {
        stores.withLock { $0[ObjectIdentifier(client)] = store }
    }

    /// The events of a client made by `BrokerTests.client`, from its start.
    init(_ client: MQTTClient) {
        guard let store = Self.stores.withLock({ $0[ObjectIdentifier(client)] }) else {
            preconditionFailure("EventCollector needs a client made by BrokerTests.client")
        }
        self.store = store
    }

    var events: [MQTTClientEvent] { store.events.withLock { $0 } }

    var messages: [MQTTIncomingMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    var statuses: [MQTTClientStatus] {
        events.compactMap { if case .status(let status) = $0 { status } else { nil } }
    }

    func messages(on topic: String) -> [MQTTIncomingMessage] { messages.filter { $0.topic == topic } }

    /// Waits until `condition` holds; throws with what arrived when `timeout` seconds pass. The
    /// condition is checked before the deadline, so a waiter that was itself starved still sees
    /// everything that arrived meanwhile.
    func wait(_ what: String, timeout: Double = 30, until condition: (EventCollector) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            guard Date() < deadline else {
                throw Timeout(description: "timed out waiting for \(what); statuses: \(statuses.map(\.description)); \(messages.count) messages")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    func waitConnected(count: Int = 1, timeout: Double = 30) async throws {
        try await wait("\(count) connection(s)", timeout: timeout) { collector in
            collector.statuses.filter { if case .connected = $0 { true } else { false } }.count >= count
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }
}
