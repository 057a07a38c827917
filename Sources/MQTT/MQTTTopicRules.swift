/// MQTT 3.1.1 topic rules (section 4.7), checked before a topic reaches libmosquitto so the
/// reason a message was refused can be told.
public enum MQTTTopicRules {
    /// MQTT's remaining-length field tops out at 268,435,455 bytes for a whole packet.
    public static let maximumPayload = 268_435_455 - 65_535 - 4

    /// Why `topic` cannot be published to, or nil when it can.
    public static func problem(publishing topic: String) -> String? {
        if topic.isEmpty { return "empty topic" }
        if topic.utf8.count > 65_535 { return "topic longer than 65535 bytes" }
        if topic.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }) {
            return "topic '\(topic)' holds a wildcard (+ or #)"
        }
        // libmosquitto and the broker refuse these too (MQTT 3.1.1 section 1.5.3); saying so here
        // names the reason instead of libmosquitto's "Malformed UTF-8".
        if topic.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "topic holds a control character"
        }
        return nil
    }

    /// True when `topic` matches the subscription `filter` (`+` one level, `#` the rest).
    public static func matches(_ topic: String, filter: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let patterns = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, pattern) in patterns.enumerated() {
            if pattern == "#" { return true }
            guard index < levels.count else { return false }
            if pattern != "+", pattern != levels[index] { return false }
        }
        return levels.count == patterns.count
    }
}
