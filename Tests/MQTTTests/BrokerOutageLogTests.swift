import MQTT
import Testing

/// The scanner agent's stderr about its broker: each outage said once, however many attempts fail.
@Suite("Broker outage log (scan --publish stderr)")
struct BrokerOutageLogTests {
    static let broker = "mqtt://127.0.0.1:1883"

    @Test("Nothing before the first connection; then the loss, the first failure, a changed reason and the return, once each")
    func oneOutageOnce() {
        var log = BrokerOutageLog()
        let refused = MQTTClientStatus.connectFailed(broker: Self.broker, attempt: 1, reason: "connection refused", retryIn: 0.5)
        #expect(log.line(for: refused, at: 0) == nil)  // start-up: the command's one line says it
        #expect(log.line(for: .connected(broker: Self.broker), at: 1) == nil)
        let lost = log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: 10)
        #expect(lost == "mqtt://127.0.0.1:1883: lost (connection lost); reconnecting in 0.5 s; messages wait in the buffer")
        var said: [String] = []
        for attempt in 2...40 {
            let status = MQTTClientStatus.connectFailed(broker: Self.broker, attempt: attempt, reason: "connection refused", retryIn: 30)
            if let line = log.line(for: status, at: 10 + Double(attempt)) { said.append(line) }
        }
        #expect(said == ["mqtt://127.0.0.1:1883: cannot connect (connection refused); attempt 2, retrying in 30 s (said again only if the reason changes)"])
        let other = MQTTClientStatus.connectFailed(broker: Self.broker, attempt: 41, reason: "host name not found", retryIn: 30)
        #expect(log.line(for: other, at: 60)?.contains("host name not found") == true)
        #expect(log.line(for: .connected(broker: Self.broker), at: 130)
            == "mqtt://127.0.0.1:1883: connected again after 120 s away, 40 failed attempts; the messages that waited are going out")
        // The next outage starts afresh: its first refusal is said again.
        _ = log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: 200)
        #expect(log.line(for: refused, at: 201) != nil)
        #expect(log.line(for: .connected(broker: Self.broker), at: 203.26)?.contains("after 3.3 s away, 1 failed attempt;") == true)
    }

    @Test("The return says how many stale readings the flush dropped, as the closing line counts them")
    func returnSaysStaleDrops() {
        var log = BrokerOutageLog()
        _ = log.line(for: .connected(broker: Self.broker), at: 0)
        _ = log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: 10)
        #expect(log.line(for: .connected(broker: Self.broker, stale: 12), at: 18)
            == "mqtt://127.0.0.1:1883: connected again after 8.0 s away; the messages that waited are going out, 12 stale readings dropped (they expired while they waited)")
        _ = log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: 20)
        #expect(log.line(for: .connected(broker: Self.broker, stale: 1), at: 21)?.hasSuffix("going out, 1 stale reading dropped (it expired while it waited)") == true)
    }

    @Test("A connection dropped right after each accept (another client with the same id) is said once, with the guess")
    func flappingOnce() {
        var log = BrokerOutageLog()
        var said: [String] = []
        var time = 0.0
        for _ in 0..<20 {
            if let line = log.line(for: .connected(broker: Self.broker), at: time) { said.append(line) }
            time += 0.1
            if let line = log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: time) { said.append(line) }
            time += 0.5
        }
        #expect(said.count == 5, "\(said)")  // two drops and their returns, then the guess
        #expect(said.last?.contains("is another client using the same client id (--client-id)?") == true, "\(said)")
        // A connection that lasts is news again: its loss is said.
        _ = log.line(for: .connected(broker: Self.broker), at: time)
        #expect(log.line(for: .lost(broker: Self.broker, reason: "connection lost", retryIn: 0.5), at: time + 60) != nil)
    }
}
