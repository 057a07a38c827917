/// The topics of a venue, under an optional prefix (`MQTTEndpoint.prefix`, so venues can share a
/// broker). Names a person chose (scanners, rooms) and beacon ids become single topic levels:
/// `/`, `+`, `#` and control characters turn into `_` (`level`), so no name adds levels or
/// matches other topics.
///
/// | topic | payload | QoS, retain |
/// |---|---|---|
/// | `espresense/devices/<id>/<scanner>` | `ESPresenseDeviceMessage` | 0 |
/// | `espresense/rooms/<scanner>/status` | `online` / `offline` (ESPresense nodes) | read only |
/// | `beacontop/scanners/<scanner>/readings` | `ScannerReadingMessage` | 0 |
/// | `beacontop/scanners/<scanner>/status` | `online` / `offline`, the last will | 1, retained |
/// | `beacontop/scanners/<scanner>/telemetry` | `ScannerTelemetry` | 0 |
/// | `beacontop/events/<type>/<room>` | `VisitEvent` (`enter`, `exit`, `visit`) | 1 |
/// | `beacontop/occupancy/<room>` | `RoomOccupancy` | 1, retained |
public struct VenueTopics: Sendable, Equatable {
    public var prefix: String

    public init(prefix: String = "") {
        self.prefix = prefix
    }

    public func espresenseDevice(id: String, scanner: String) -> String {
        topic("espresense/devices/\(Self.level(id))/\(Self.level(scanner))")
    }

    public func readings(scanner: String) -> String { topic("beacontop/scanners/\(Self.level(scanner))/readings") }
    public func status(scanner: String) -> String { topic("beacontop/scanners/\(Self.level(scanner))/status") }
    public func telemetry(scanner: String) -> String { topic("beacontop/scanners/\(Self.level(scanner))/telemetry") }
    public func event(_ kind: VisitEvent.Kind, room: String) -> String { topic("beacontop/events/\(kind.rawValue)/\(Self.level(room))") }
    public func occupancy(room: String) -> String { topic("beacontop/occupancy/\(Self.level(room))") }

    /// What a venue view subscribes to: every scanner of both kinds.
    public var viewSubscriptions: [String] {
        ["espresense/devices/+/+", "espresense/rooms/+/status", "beacontop/scanners/+/+"].map(topic)
    }

    /// What a backend subscribes to for visits (QoS 1, with a persistent session).
    public var eventSubscriptions: [String] { ["beacontop/events/#", "beacontop/occupancy/+"].map(topic) }

    /// Status payloads, as ESPresense nodes publish them.
    public static let online = "online"
    public static let offline = "offline"

    /// The levels of `topic` after the prefix, or nil when it is not under the prefix.
    public func levels(of topic: String) -> [Substring]? {
        if let levels = Self.asciiLevels(of: topic, prefix: prefix) { return levels }
        return splitLevels(of: topic)
    }

    /// `levels(of:)` by Characters, for any topic.
    func splitLevels(of topic: String) -> [Substring]? {
        let all = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard !prefix.isEmpty else { return all }
        let mine = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard all.count > mine.count, Array(all.prefix(mine.count)) == mine else { return nil }
        return Array(all.dropFirst(mine.count))
    }

    /// `levels(of:)` for an ASCII topic, split on its bytes: there each byte is a Character, so
    /// this splits where the Character split does, without walking grapheme breaks (a fifth of a
    /// venue replay's time). Nil (undecided) for anything else: a "/" next to a combining mark is
    /// no level separator, and a prefix may match canonically but not byte for byte.
    static func asciiLevels(of topic: String, prefix: String) -> [Substring]?? {
        let mine = Array(prefix.utf8)
        guard mine.allSatisfy({ $0 < 0x80 }) else { return nil }
        // Level boundaries as byte offsets, found in the contiguous bytes: walking the String's
        // UTF-8 view by index cost 50 instructions a byte.
        let found = topic.utf8.withContiguousStorageIfAvailable { utf8 -> [Range<Int>]?? in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            var start = 0
            if !mine.isEmpty {
                guard utf8.count > mine.count, utf8[mine.count] == UInt8(ascii: "/"), utf8.starts(with: mine) else { return .some(nil) }
                start = mine.count + 1
            }
            var levels: [Range<Int>] = []
            levels.reserveCapacity(5)
            for offset in start..<utf8.count where utf8[offset] == UInt8(ascii: "/") {
                levels.append(start..<offset)
                start = offset + 1
            }
            levels.append(start..<utf8.count)
            return levels
        }
        guard let found, let ranges = found else { return nil }
        guard let ranges else { return .some(nil) }
        let utf8 = topic.utf8
        return ranges.map { range in
            topic[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
    }

    private func topic(_ tail: String) -> String { prefix.isEmpty ? tail : "\(prefix)/\(tail)" }

    public static func level(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let unsafe = scalar == "+" || scalar == "#" || scalar == "/" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            out.unicodeScalars.append(unsafe ? "_" : scalar)
        }
        return out.isEmpty ? "_" : out
    }
}
