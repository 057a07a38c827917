/// Messages waiting while the broker is away, bounded by count and by bytes, so an agent whose
/// broker is gone for an hour holds a known amount of memory and says what it lost.
///
/// When full, the oldest QoS 0 message goes first (a reading superseded by a newer one), and only
/// when none is left the oldest QoS 1 message; every dropped message is counted. Order is kept:
/// messages go out on reconnect in the order they were published. A message with an
/// `expiresAfter` that waited longer than that is dropped when the buffer is flushed, and counted
/// apart (`droppedStale`): an old reading would be taken as heard now.
public struct MQTTOutgoingBuffer: Sendable, Equatable {
    /// A waiting message and the time (on the caller's clock) after which it is not worth sending.
    public struct Entry: Sendable, Equatable {
        public var message: MQTTOutgoingMessage
        public var expiresAt: Double

        public init(_ message: MQTTOutgoingMessage, queuedAt: Double) {
            self.message = message
            expiresAt = message.expiresAfter.map { queuedAt + $0 } ?? .infinity
        }
    }

    /// 20,000 messages and 8 MiB: about 100 s of a 100-beacon agent publishing both its
    /// ESPresense and its own message per beacon per second (200 messages, ~80 kB a second).
    public static let defaultMessageLimit = 20_000
    public static let defaultByteLimit = 8 << 20

    public let messageLimit: Int
    public let byteLimit: Int
    private var messages: [Entry] = []
    /// Index of the first message still waiting (taken messages are compacted lazily).
    private var head = 0
    public private(set) var bytes = 0
    public private(set) var dropped = 0
    public private(set) var droppedQoS1 = 0
    /// Messages that expired while they waited (readings older than a receiver would use).
    public private(set) var droppedStale = 0

    public init(messageLimit: Int = defaultMessageLimit, byteLimit: Int = defaultByteLimit) {
        self.messageLimit = max(1, messageLimit)
        self.byteLimit = max(1, byteLimit)
    }

    public var count: Int { messages.count - head }
    /// The waiting messages, oldest first.
    public var waiting: [MQTTOutgoingMessage] { messages[head...].map(\.message) }
    public var isEmpty: Bool { count == 0 }

    /// Queues `message` published at `now` (any clock, the same for `takeAll`), dropping older
    /// ones if needed. A message larger than the whole byte limit is dropped itself.
    public mutating func append(_ message: MQTTOutgoingMessage, at now: Double = 0) {
        append(Entry(message, queuedAt: now))
    }

    private mutating func append(_ entry: Entry) {
        let size = Self.size(of: entry.message)
        guard size <= byteLimit else {
            countDrop(entry.message)
            return
        }
        while count >= messageLimit || bytes + size > byteLimit {
            dropOne()
        }
        messages.append(entry)
        bytes += size
    }

    /// Takes every waiting message still worth sending at `now`, oldest first; the expired ones
    /// are dropped and counted in `droppedStale`.
    public mutating func takeAll(at now: Double = 0) -> [Entry] {
        let waiting = messages[head...].filter { $0.expiresAt >= now }
        droppedStale += count - waiting.count
        messages.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        return waiting
    }

    /// Puts entries back at the front (a flush the connection cut short), within the limits.
    public mutating func putBack(_ unsent: [Entry]) {
        let later = Array(messages[head...])
        messages.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        for entry in unsent + later { append(entry) }
    }

    private mutating func dropOne() {
        let victim = messages[head...].firstIndex { $0.message.qos == .atMostOnce } ?? head
        let message = messages[victim].message
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
