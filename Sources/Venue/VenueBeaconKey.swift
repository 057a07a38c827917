import BeaconFormats
import HCI

/// The one key a venue tracks a beacon by, whatever form a scanner wrote its id in, so one beacon
/// is one row, one presence and one visit across scanners: `BeaconIdentity.description` (as
/// catalogs name beacons and beacontop's readings carry them).
///
/// Read, in any case of letters, the `iBeacon:`/`altBeacon:`/`eddy:` type prefix or none:
/// - iBeacon (and AltBeacon, which prints the same): `<uuid><s><major><s><minor>` with `s` either `:`
///   (beacontop) or `-` (ESPresense; with no prefix, room-assistant's and Home Assistant
///   `mqtt_room`'s device ids). The UUID has its four dashes or none (32 hex digits), major and
///   minor are decimals up to 65535.
/// - Eddystone-UID: `<namespace><s><instance>`, 10 and 6 bytes in hex; ESPresense's 11-byte
///   namespace (its firmware prints byte 5 twice) is read as the 10 it stands for.
/// - beacontop's other forms: `eid:` and 8 bytes in hex, `tlm:` and an address, an Eddystone URL.
///
/// Anything else names no beacon (a phone's `irk:...` or `name:...`, a MAC address, a UUID without
/// its numbers) and gives nil. On the ESPresense topic such a reading is a device's, tracked under
/// its id as it came, unless the id claims a beacon's prefix (`claimsBeacon`); on beacontop's topic
/// it is mangled (`Cache.espresenseKey`, `Cache.beacontopKey`).
public enum VenueBeaconKey {
    /// The key of the beacon `id` names, nil when it names none.
    public static func key(_ id: String) -> String? {
        identity(id)?.description
    }

    public static func identity(_ id: String) -> BeaconIdentity? {
        if id.hasPrefix("http://") || id.hasPrefix("https://") { return .eddystoneURL(id) }
        let utf8 = Array(id.utf8)
        // Every other form is printable ASCII, and short: a longer id is none of them.
        guard utf8.count <= 64, utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let colon = utf8.firstIndex(of: UInt8(ascii: ":"))
        let type = colon.map { String(decoding: utf8[..<$0], as: UTF8.self).lowercased() }
        let body = colon.map { utf8[($0 + 1)...] } ?? utf8[...]
        switch type {
        case "ibeacon":
            return uuidMajorMinor(body).map { .iBeacon(uuid: $0.0, major: $0.1, minor: $0.2) }
        case "altbeacon":
            return uuidMajorMinor(body).map { .altBeacon(id1: $0.0, id2: $0.1, id3: $0.2) }
        case "eddy":
            return eddystoneUID(body)
        case "eid":
            guard let bytes = UUIDBytes.hexBytes(Substring(decoding: body, as: UTF8.self)), bytes.count == 8 else { return nil }
            return .eddystoneEID(bytes)
        case "tlm":
            return BDAddress(String(decoding: body, as: UTF8.self)).map { .eddystoneTLM($0) }
        default:
            let whole = utf8[...]
            return uuidMajorMinor(whole).map { .iBeacon(uuid: $0.0, major: $0.1, minor: $0.2) } ?? eddystoneUID(whole)
        }
    }

    /// `<uuid><s><major><s><minor>`, one separator throughout (`:` or `-`).
    static func uuidMajorMinor(_ text: ArraySlice<UInt8>) -> (UUIDBytes, UInt16, UInt16)? {
        guard let last = text.lastIndex(where: isSeparator) else { return nil }
        let separator = text[last]
        guard let middle = text[..<last].lastIndex(of: separator), let uuid = uuid(text[..<middle]),
              let major = decimal(text[(middle + 1)..<last]), let minor = decimal(text[(last + 1)...]) else { return nil }
        return (uuid, major, minor)
    }

    /// 32 hex digits, bare or dashed 8-4-4-4-12.
    private static func uuid(_ text: ArraySlice<UInt8>) -> UUIDBytes? {
        switch text.count {
        case 32:
            guard !text.contains(UInt8(ascii: "-")) else { return nil }
        case 36:
            let dashes = text.indices.filter { text[$0] == UInt8(ascii: "-") }.map { $0 - text.startIndex }
            guard dashes == [8, 13, 18, 23] else { return nil }
        default:
            return nil
        }
        return UUIDBytes(hexDigits: text)
    }

    /// 1 to 5 ASCII digits up to 65535 (no sign: `+100` and `-1` are no major).
    private static func decimal(_ text: ArraySlice<UInt8>) -> UInt16? {
        guard (1...5).contains(text.count) else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= Int(UInt16.max) ? UInt16(value) : nil
    }

    /// `<namespace><s><instance>`: one separator, 10 (or ESPresense's 11) bytes and 6.
    static func eddystoneUID(_ text: ArraySlice<UInt8>) -> BeaconIdentity? {
        let separators = text.indices.filter { isSeparator(text[$0]) }
        guard separators.count == 1, let at = separators.first,
              var namespace = UUIDBytes.hexBytes(Substring(decoding: text[..<at], as: UTF8.self)),
              let instance = UUIDBytes.hexBytes(Substring(decoding: text[(at + 1)...], as: UTF8.self)), instance.count == 6 else { return nil }
        if namespace.count == 11 {
            guard namespace[4] == namespace[5] else { return nil }
            namespace.remove(at: 5)
        }
        guard namespace.count == 10 else { return nil }
        return .eddystoneUID(namespace: namespace, instance: instance)
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
    }

    /// The `iBeacon:`/`altBeacon:`/`eddy:` prefix (any case) by which an ESPresense id claims to
    /// be a beacon's: such an id that does not parse is mangled, not a device's.
    /// Compared byte by byte, letters folded (`| 0x20` equates only an ASCII letter with its other
    /// case here): a device's reading asks it at every message, so it makes no String.
    public static func claimsBeacon(_ id: String) -> Bool {
        guard let colon = id.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let type = id.utf8[..<colon]
        return ["ibeacon", "altbeacon", "eddy"].contains { $0.utf8.elementsEqual(type.lazy.map { $0 | 0x20 }) }
    }

    /// Whether a beacon of `identity` is of the `kind` a beacontop reading wrote: an AltBeacon's
    /// canonical id is an iBeacon's (`UUID:id2:id3`), so those two kinds are one here; a reading
    /// with no `kind`, or one beacontop does not write, asks only that the id be a beacon's.
    static func matches(_ identity: BeaconKind, kind: String?) -> Bool {
        guard let kind = kind.flatMap(BeaconKind.init(rawValue:)) else { return true }
        return kind == identity || (isUUIDKind(kind) && isUUIDKind(identity))
    }

    private static func isUUIDKind(_ kind: BeaconKind) -> Bool {
        kind == .iBeacon || kind == .altBeacon
    }

    /// The key and kind of the beacon an id names, remembered per id: a venue hears the same few
    /// hundred ids over and over, and parsing each id and writing its key again was a tenth of a
    /// replay. Ids that name no beacon are remembered too (as nil). Bounded: past `capacity` ids (a
    /// hostile or huge venue) it starts over.
    public struct Cache: Sendable {
        private var parsed: [String: (key: String, kind: BeaconKind)?] = [:]
        public static let capacity = 4096

        public init() {}

        mutating func beacon(for id: String) -> (key: String, kind: BeaconKind)? {
            if let known = parsed[id] { return known }
            if parsed.count >= Self.capacity { parsed.removeAll(keepingCapacity: true) }
            let beacon = VenueBeaconKey.identity(id).map { (key: $0.description, kind: $0.kind) }
            parsed[id] = .some(beacon)
            return beacon
        }

        public mutating func key(for id: String) -> String? {
            beacon(for: id)?.key
        }

        /// What an ESPresense reading is tracked by: the beacon's canonical key; else, for an id
        /// that names no beacon (a phone's `irk:...`, `name:...`), the device it names, under the id
        /// as it came. An id with a beacon's prefix that does not parse is refused as mangled.
        mutating func espresenseKey(for id: String) throws(VenueMessageError) -> String {
            if let key = key(for: id) { return key }
            guard !VenueBeaconKey.claimsBeacon(id) else { throw .malformedBeaconID("a beacon type prefix on an id that is no beacon's") }
            return id
        }

        /// What a beacontop reading is tracked by: its beacon's canonical key. beacontop's agents
        /// write only beacons, in canonical form, so an id that is no beacon of its `kind` is mangled.
        mutating func beacontopKey(for id: String, kind: String?) throws(VenueMessageError) -> String {
            guard let beacon = beacon(for: id) else { throw .malformedBeaconID("a beacontop reading's id that is no beacon's") }
            guard VenueBeaconKey.matches(beacon.kind, kind: kind) else {
                throw .malformedBeaconID("a beacontop reading's id that is no \(kind ?? "") beacon's")
            }
            return beacon.key
        }
    }
}
