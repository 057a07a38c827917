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
        #expect(buffer.takeAll().map(\.topic) == (0..<5).map { "t/\($0)" })
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
        buffer.putBack([message(1), message(2)])
        #expect(buffer.waiting.map(\.topic) == ["t/1", "t/2", "t/9"])
    }
}
