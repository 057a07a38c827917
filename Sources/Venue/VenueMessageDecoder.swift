/// What a venue view takes from one broker message.
public enum VenueInput: Sendable, Equatable {
    case reading(ScannerReading)
    case scannerStatus(scanner: String, online: Bool, time: Double)
    case telemetry(ScannerTelemetry)
    /// The scanner's retained status was deleted (an empty payload, MQTT 3.1.1 §3.3.1.3): it is
    /// retired, and leaves the view's scanner list with its telemetry.
    case scannerRetired(scanner: String, time: Double)
    /// Its retained telemetry was deleted: what it last said of its radio no longer stands.
    case telemetryCleared(scanner: String)

    /// The scanner the message is from.
    public var scanner: String {
        switch self {
        case .reading(let reading): reading.scanner
        case .telemetry(let telemetry): telemetry.scanner
        case .scannerStatus(let scanner, _, _), .scannerRetired(let scanner, _), .telemetryCleared(let scanner): scanner
        }
    }
}

/// Turns broker messages into `VenueInput`, counting what it refuses. Pure: the topic, the payload
/// and the time it arrived in; nothing else. Names from topics and payloads that hold control
/// characters are refused here, so no scanner or beacon name can carry an escape sequence to a
/// terminal or a log.
public struct VenueMessageDecoder: Sendable {
    public let topics: VenueTopics
    /// Messages refused, by reason (`VenueMessageError.kindName`).
    public private(set) var refused: [String: Int] = [:]
    public private(set) var accepted = 0
    private var beaconKeys = VenueBeaconKey.Cache()

    public init(topics: VenueTopics = VenueTopics()) {
        self.topics = topics
    }

    public var refusedTotal: Int { refused.values.reduce(0, +) }

    /// The input in a message, nil for topics that are not a scanner's (the view's own events,
    /// ESPresense settings); malformed or hostile messages are counted and give nil too, and so are
    /// readings the broker delivered as `retained` (a view starting would take one as heard now).
    public mutating func decode(topic: String, payload: [UInt8], receivedAt: Double, retained: Bool = false) -> VenueInput? {
        do {
            guard let input = try Self.input(
                topic: topic, payload: payload, receivedAt: receivedAt, topics: topics, keys: &beaconKeys, retained: retained
            ) else {
                return nil
            }
            accepted += 1
            return input
        } catch {
            refused[error.kindName, default: 0] += 1
            return nil
        }
    }

    public static func input(topic: String, payload: [UInt8], receivedAt: Double, topics: VenueTopics) throws(VenueMessageError) -> VenueInput? {
        var keys = VenueBeaconKey.Cache()
        return try input(topic: topic, payload: payload, receivedAt: receivedAt, topics: topics, keys: &keys)
    }

    static func input(
        topic: String, payload: [UInt8], receivedAt: Double, topics: VenueTopics, keys: inout VenueBeaconKey.Cache, retained: Bool = false
    ) throws(VenueMessageError) -> VenueInput? {
        guard let levels = topics.levels(of: topic), levels.count == 4 else { return nil }
        let scanner: String
        switch (levels[0], levels[1], levels[3]) {
        case ("espresense", "devices", _):
            guard !retained else { throw .retainedReading }
            scanner = try name(levels[3])
            let message = try ESPresenseDeviceMessage(json: payload)
            guard let rssi = message.rssi else { throw .wrongShape("ESPresense message without \"rssi\"") }
            try checkRSSI(rssi)
            let beacon = try keys.espresenseKey(for: try name(message.id))
            // A negative distance is none, as a beacontop reading's `accuracy` of -1 is: the table
            // showed `-3.50 immediate` and the venue line `"distance":-3.5`.
            return .reading(ScannerReading(
                scanner: scanner, beacon: beacon, time: receivedAt, rssi: rssi, measuredPower: message.rssiAt1m,
                distance: message.distance.flatMap { $0 >= 0 ? $0 : nil }, format: .espresense
            ))
        case ("espresense", "rooms", "status"), ("beacontop", "scanners", "status"):
            scanner = try name(levels[2])
            if payload.isEmpty { return .scannerRetired(scanner: scanner, time: receivedAt) }
            return .scannerStatus(scanner: scanner, online: try status(payload), time: receivedAt)
        case ("beacontop", "scanners", "readings"):
            guard !retained else { throw .retainedReading }
            scanner = try name(levels[2])
            var (reading, kind) = try ScannerReadingMessage.readingAndKind(json: payload, scanner: scanner, receivedAt: receivedAt)
            try checkRSSI(reading.rssi)
            reading.beacon = try keys.beacontopKey(for: try name(reading.beacon), kind: kind)
            return .reading(reading)
        case ("beacontop", "scanners", "telemetry"):
            scanner = try name(levels[2])
            if payload.isEmpty { return .telemetryCleared(scanner: scanner) }
            return .telemetry(try ScannerTelemetry(json: payload, scanner: scanner))
        default:
            return nil
        }
    }

    private static func status(_ payload: [UInt8]) throws(VenueMessageError) -> Bool {
        guard payload.count <= 64 else { throw .oversized(payload.count) }
        switch String(decoding: payload, as: UTF8.self).trimmingWhitespace {
        case VenueTopics.online: return true
        case VenueTopics.offline: return false
        default: throw .wrongShape("status is neither online nor offline")
        }
    }

    /// An RSSI a receiver can report: the controller's field is one signed byte (Core 5.4 Vol 4
    /// Part E 7.7.65.2), and a scanner's filtered value stays within it. JSON takes any finite
    /// number, and a reading of 1e300 dBm was taken: the monitor's table and sparkline make whole
    /// dBm of it, and the conversion trapped (`monitor` on such a recording or broker crashed).
    static let rssiRange: ClosedRange<Double> = -128...127

    private static func checkRSSI(_ rssi: Double) throws(VenueMessageError) {
        guard rssiRange.contains(rssi) else { throw .wrongShape("RSSI out of range (-128 to 127 dBm)") }
    }

    /// A scanner name or beacon id: at most 256 bytes, no control characters (C0, DEL, C1).
    static func name(_ text: Substring) throws(VenueMessageError) -> String {
        try checkName(text.utf8)
        return String(text)
    }

    static func name(_ text: String) throws(VenueMessageError) -> String {
        try checkName(text.utf8)
        return text
    }

    /// On the UTF-8 bytes, which are valid: C0 and DEL are single bytes, C1 is 0xC2 0x80-0x9F
    /// (walking unicode scalars cost as much as the rest of the message's checks).
    private static func checkName(_ utf8: some Collection<UInt8>) throws(VenueMessageError) {
        guard !utf8.isEmpty, utf8.count <= 256 else { throw .wrongShape("name empty or over 256 bytes") }
        let clean = utf8.withContiguousStorageIfAvailable(isClean) ?? isClean(utf8)
        guard clean else { throw .wrongShape("control character in a name") }
    }

    private static func isClean(_ utf8: some Sequence<UInt8>) -> Bool {
        var afterC2 = false
        for byte in utf8 {
            guard byte >= 0x20, byte != 0x7F, !(afterC2 && byte >= 0x80 && byte <= 0x9F) else { return false }
            afterC2 = byte == 0xC2
        }
        return true
    }
}

extension VenueMessageError {
    public var kindName: String {
        switch self {
        case .oversized: "oversized"
        case .malformedJSON: "malformed JSON"
        case .wrongShape: "wrong shape"
        case .unknownTopic: "unknown topic"
        case .retainedReading: "retained reading"
        case .malformedBeaconID: "malformed beacon id"
        }
    }
}

extension String {
    var trimmingWhitespace: Substring {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
