import MQTT
import Testing

@Suite("Outgoing buffer while the broker is away")
struct MQTTOutgoingBufferTests {
    func message(_ index: Int, qos: MQTTQoS = .atMostOnce, size: Int = 10) -> MQTTOutgoingMessage {
        MQTTOutgoingMessage(topic: "t/\(index)", payload: [UInt8](repeating: UInt8(index % 256), count: size), qos: qos)
    }

    @Test("Keeps order and gives everything back")
    func order() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 10, byteLimit: 10_000)
        for index in 0..<5 { buffer.append(message(index)) }
        #expect(buffer.count == 5)
        #expect(buffer.takeAll().map(\.message.topic) == (0..<5).map { "t/\($0)" })
        #expect(buffer.isEmpty && buffer.bytes == 0)
    }

    @Test("Full by count: the oldest QoS 0 goes first, QoS 1 messages stay while any QoS 0 is left")
    func dropsQoS0First() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 3, byteLimit: 10_000)
        buffer.append(message(0, qos: .atLeastOnce))
        buffer.append(message(1))
        buffer.append(message(2))
        buffer.append(message(3))
        #expect(buffer.waiting.map(\.topic) == ["t/0", "t/2", "t/3"])
        #expect(buffer.dropped == 1 && buffer.droppedQoS1 == 0)
        buffer.append(message(4, qos: .atLeastOnce))
        buffer.append(message(5, qos: .atLeastOnce))
        #expect(buffer.waiting.map(\.topic) == ["t/0", "t/4", "t/5"])
        buffer.append(message(6, qos: .atLeastOnce))
        #expect(buffer.waiting.map(\.topic) == ["t/4", "t/5", "t/6"])
        #expect(buffer.dropped == 4 && buffer.droppedQoS1 == 1)
    }

    @Test("Full by bytes: drops until the new message fits; one larger than the limit is dropped itself")
    func byteLimit() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 100, byteLimit: 100)
        for index in 0..<4 { buffer.append(message(index, size: 20)) } // 23 bytes each with the topic
        #expect(buffer.count == 4 && buffer.bytes == 92)
        buffer.append(message(4, size: 20))
        #expect(buffer.waiting.map(\.topic) == ["t/1", "t/2", "t/3", "t/4"])
        buffer.append(message(5, size: 200))
        #expect(buffer.count == 4 && buffer.dropped == 2)
    }

    @Test("Stays bounded over a long outage: 100,000 messages into a 1,000-message buffer")
    func longOutage() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 1000, byteLimit: 1 << 20)
        for index in 0..<100_000 { buffer.append(message(index)) }
        #expect(buffer.count == 1000)
        #expect(buffer.dropped == 99_000)
        #expect(buffer.waiting.first?.topic == "t/99000")
        #expect(buffer.waiting.last?.topic == "t/99999")
    }

    @Test("putBack puts an interrupted flush before newer messages")
    func putBack() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 10, byteLimit: 10_000)
        buffer.append(message(9))
        buffer.putBack([message(1), message(2)].map { .init($0, queuedAt: 0) })
        #expect(buffer.waiting.map(\.topic) == ["t/1", "t/2", "t/9"])
    }

    @Test("A flush drops the readings that expired while they waited, counted apart; events, status and telemetry go out however old")
    func expiredReadingsDropped() {
        var buffer = MQTTOutgoingBuffer(messageLimit: 100, byteLimit: 10_000)
        var reading = message(1)
        reading.expiresAfter = 4
        buffer.append(reading, at: 100)                        // expires at 104
        buffer.append(message(2, qos: .atLeastOnce), at: 100)  // a visit event: never expires
        buffer.append(message(3), at: 100)                     // telemetry: never expires
        reading = message(4)
        reading.expiresAfter = 1
        buffer.append(reading, at: 103.5)                      // a reading whose beacon was last heard 3 s before it
        reading = message(5)
        reading.expiresAfter = 4
        buffer.append(reading, at: 103)                        // expires at 107
        let sent = buffer.takeAll(at: 105)
        #expect(sent.map(\.message.topic) == ["t/2", "t/3", "t/5"])
        #expect(buffer.droppedStale == 2 && buffer.dropped == 0)
        #expect(buffer.isEmpty && buffer.bytes == 0)
        // A flush cut short keeps each message's own expiry.
        buffer.putBack(sent)
        #expect(buffer.takeAll(at: 1_000).map(\.message.topic) == ["t/2", "t/3"])
        #expect(buffer.droppedStale == 3)
    }
}
