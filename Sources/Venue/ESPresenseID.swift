import BeaconFormats

/// Beacon ids as ESPresense's firmware writes them (`lib/BleFingerprint/BleFingerprint.cpp`,
/// `setId`), so a beacontop scanner and an ESP32 node name the same beacon the same way and Home
/// Assistant's `mqtt_room` or ESPresense Companion see one device:
///
/// - iBeacon: `iBeacon:<uuid>-<major>-<minor>`, the UUID lower-case with dashes, decimals
/// - AltBeacon: `altBeacon:<id1>-<id2>-<id3>`, the same shape
/// - Eddystone-UID: `eddy:<namespace>-<instance>` in lower-case hex. The firmware's format string
///   prints namespace byte 5 twice (11 bytes, 22 digits); beacontop writes the same so both
///   scanners' messages land on one device, and reads both the firmware's 22 digits and a correct 20.
///
/// Eddystone-URL, -TLM and -EID have no id of their own in ESPresense (it names those devices by
/// address), so they are not published on its topic; beacontop's own topic carries them.
public enum ESPresenseID {
    public static func string(for identity: BeaconIdentity) -> String? {
        switch identity {
        case .iBeacon(let uuid, let major, let minor):
            "iBeacon:\(uuid.description.lowercased())-\(major)-\(minor)"
        case .altBeacon(let id1, let id2, let id3):
            "altBeacon:\(id1.description.lowercased())-\(id2)-\(id3)"
        case .eddystoneUID(let namespace, let instance):
            namespace.count == 10 && instance.count == 6
                ? "eddy:\(hex(Array(namespace[0...4]) + Array(namespace[4...9])))-\(hex(instance))"
                : nil
        case .eddystoneURL, .eddystoneTLM, .eddystoneEID:
            nil
        }
    }

    /// The beacon an ESPresense id names, when it is one of the beacon forms above.
    public static func identity(_ id: String) -> BeaconIdentity? {
        if id.hasPrefix("iBeacon:"), let (uuid, major, minor) = uuidMajorMinor(id.dropFirst(8)) {
            return .iBeacon(uuid: uuid, major: major, minor: minor)
        }
        if id.hasPrefix("altBeacon:"), let (uuid, major, minor) = uuidMajorMinor(id.dropFirst(10)) {
            return .altBeacon(id1: uuid, id2: major, id3: minor)
        }
        if id.hasPrefix("eddy:") {
            let parts = id.dropFirst(5).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, var namespace = UUIDBytes.hexBytes(parts[0]), let instance = UUIDBytes.hexBytes(parts[1]), instance.count == 6 else { return nil }
            if namespace.count == 11 {
                guard namespace[4] == namespace[5] else { return nil }
                namespace.remove(at: 5)
            }
            guard namespace.count == 10 else { return nil }
            return .eddystoneUID(namespace: namespace, instance: instance)
        }
        return nil
    }

    /// The key a beacon is tracked by in a venue: beacontop's own id (`BeaconIdentity.description`,
    /// as catalogs name beacons) when the ESPresense id is a beacon's, else the ESPresense id as it
    /// came (a phone's `irk:...`, a `name:...`).
    public static func beaconKey(_ id: String) -> String {
        identity(id)?.description ?? id
    }

    /// `beaconKey` remembered per id: a venue hears the same few hundred ids over and over, and
    /// parsing each id and writing its key again was a tenth of a replay. Bounded: past
    /// `capacity` ids (a hostile or huge venue) it starts over.
    public struct KeyCache: Sendable {
        private var keys: [String: String] = [:]
        public static let capacity = 4096

        public init() {}

        public mutating func key(for id: String) -> String {
            if let key = keys[id] { return key }
            if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
            let key = ESPresenseID.beaconKey(id)
            keys[id] = key
            return key
        }
    }

    /// `uuid-major-minor`: the UUID is 36 characters with its four dashes. Counted in Characters,
    /// not bytes: an id with multi-byte or combining characters (fuzz-venue's find) has more bytes
    /// than Characters, and stepping 36 Characters past its end traps.
    private static func uuidMajorMinor(_ text: Substring) -> (UUIDBytes, UInt16, UInt16)? {
        if let parsed = asciiUUIDMajorMinor(text) { return parsed }
        return characterUUIDMajorMinor(text)
    }

    static func characterUUIDMajorMinor(_ text: Substring) -> (UUIDBytes, UInt16, UInt16)? {
        guard text.count > 37 else { return nil }
        let uuidEnd = text.index(text.startIndex, offsetBy: 36)
        guard text[uuidEnd] == "-", let uuid = UUIDBytes(text[..<uuidEnd]) else { return nil }
        let numbers = text[text.index(after: uuidEnd)...].split(separator: "-", omittingEmptySubsequences: false)
        guard numbers.count == 2, let major = UInt16(numbers[0]), let minor = UInt16(numbers[1]) else { return nil }
        return (uuid, major, minor)
    }

    /// `uuidMajorMinor` on an ASCII id, on its bytes: every byte is then a Character (a CR LF
    /// pair is one, but a CR is no hex digit, dash or decimal digit, so such an id fails both
    /// ways). Nil (undecided) for an id with any other byte, or not stored contiguously.
    /// Counting Characters and walking them through `UUIDBytes(String)` was a third of a venue
    /// replay's time.
    static func asciiUUIDMajorMinor(_ text: Substring) -> (UUIDBytes, UInt16, UInt16)?? {
        let parsed = text.utf8.withContiguousStorageIfAvailable { utf8 -> (UUIDBytes, UInt16, UInt16)?? in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard utf8.count > 37, utf8[36] == UInt8(ascii: "-") else { return .some(nil) }
            guard let uuid = UUIDBytes(hexDigits: utf8[0..<36]), let dash = utf8[37...].firstIndex(of: UInt8(ascii: "-")),
                  let major = decimal(utf8[37..<dash]), let minor = decimal(utf8[(dash + 1)...]) else { return .some(nil) }
            return (uuid, major, minor)
        }
        return parsed ?? nil
    }

    /// `UInt16(text)` on one dash-separated part of ASCII bytes.
    private static func decimal(_ utf8: Slice<UnsafeBufferPointer<UInt8>>) -> UInt16? {
        guard utf8.count <= 5, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            // A third part (the split has more than two), else what `UInt16` makes of a sign or zeros.
            return utf8.contains(UInt8(ascii: "-")) ? nil : UInt16(String(decoding: utf8, as: UTF8.self))
        }
        guard !utf8.isEmpty else { return nil }
        var value = 0
        for byte in utf8 { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
        return value <= Int(UInt16.max) ? UInt16(value) : nil
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
