/// Messages waiting while the broker is away, bounded by count and by bytes, so an agent whose
/// broker is gone for an hour holds a known amount of memory and says what it lost.
///
/// When full, the oldest QoS 0 message goes first (a reading superseded by a newer one), and only
/// when none is left the oldest QoS 1 message; every dropped message is counted. Order is kept:
/// messages go out on reconnect in the order they were published.
public struct MQTTOutgoingBuffer: Sendable, Equatable {
    /// 20,000 messages and 8 MiB: about 100 s of a 100-beacon agent publishing both its
    /// ESPresense and its own message per beacon per second (200 messages, ~80 kB a second).
    public static let defaultMessageLimit = 20_000
    public static let defaultByteLimit = 8 << 20

    public let messageLimit: Int
    public let byteLimit: Int
    private var messages: [MQTTOutgoingMessage] = []
    /// Index of the first message still waiting (taken messages are compacted lazily).
    private var head = 0
    public private(set) var bytes = 0
    public private(set) var dropped = 0
    public private(set) var droppedQoS1 = 0

    public init(messageLimit: Int = defaultMessageLimit, byteLimit: Int = defaultByteLimit) {
        self.messageLimit = max(1, messageLimit)
        self.byteLimit = max(1, byteLimit)
    }

    public var count: Int { messages.count - head }
    /// The waiting messages, oldest first.
    public var waiting: ArraySlice<MQTTOutgoingMessage> { messages[head...] }
    public var isEmpty: Bool { count == 0 }

    /// Queues `message`, dropping older ones if needed. A message larger than the whole byte limit
    /// is dropped itself.
    public mutating func append(_ message: MQTTOutgoingMessage) {
        let size = Self.size(of: message)
        guard size <= byteLimit else {
            countDrop(message)
            return
        }
        while count >= messageLimit || bytes + size > byteLimit {
            dropOne()
        }
        messages.append(message)
        bytes += size
    }

    /// Takes every waiting message, oldest first.
    public mutating func takeAll() -> [MQTTOutgoingMessage] {
        let waiting = Array(messages[head...])
        messages.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        return waiting
    }

    /// Puts messages back at the front (a flush the connection cut short), within the limits.
    public mutating func putBack(_ unsent: [MQTTOutgoingMessage]) {
        let later = takeAll()
        for message in unsent + later { append(message) }
    }

    private mutating func dropOne() {
        let victim = messages[head...].firstIndex { $0.qos == .atMostOnce } ?? head
        let message = messages[victim]
        if victim == head {
            head += 1
            if head > 1024, head * 2 > messages.count {
                messages.removeFirst(head)
                head = 0
            }
        } else {
            messages.remove(at: victim)
        }
        bytes -= Self.size(of: message)
        countDrop(message)
    }

    private mutating func countDrop(_ message: MQTTOutgoingMessage) {
        dropped += 1
        if message.qos == .atLeastOnce { droppedQoS1 += 1 }
    }

    static func size(of message: MQTTOutgoingMessage) -> Int { message.topic.utf8.count + message.payload.count }
}
