import HCI

/// What a beacon is known by, whatever frame it sent: the key of ranging state, catalogs and regions.
///
/// `description` is the id printed in NDJSON and matched by exhibit catalogs:
/// - iBeacon: `UUID:major:minor`, UUID upper-case (`E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1`)
/// - AltBeacon: the 20-byte id as `UUID:id2:id3` (16-byte id1 upper-case, then two 16-bit decimals),
///   as the Android Beacon Library prints it
/// - Eddystone-UID: `namespace:instance` in lower-case hex (`12345678901234678901:000000000001`)
/// - Eddystone-URL: the expanded URL itself
/// - Eddystone-EID: `eid:` and the 8-byte ephemeral id in lower-case hex
/// - Eddystone-TLM: `tlm:` and the sender's address (telemetry names no beacon of its own)
public enum BeaconIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
    case iBeacon(uuid: UUIDBytes, major: UInt16, minor: UInt16)
    case altBeacon(id1: UUIDBytes, id2: UInt16, id3: UInt16)
    case eddystoneUID(namespace: [UInt8], instance: [UInt8])
    case eddystoneURL(String)
    case eddystoneEID([UInt8])
    case eddystoneTLM(BDAddress)

    public init(frame: BeaconFrame, address: BDAddress) {
        switch frame {
        case .iBeacon(let f):
            self = .iBeacon(uuid: f.uuid, major: f.major, minor: f.minor)
        case .altBeacon(let f):
            // Padded so a hand-built frame with a short id cannot trap; parsed frames hold 20 bytes.
            let id = f.beaconID + [UInt8](repeating: 0, count: max(0, 20 - f.beaconID.count))
            self = .altBeacon(
                id1: UUIDBytes(bigEndian: id.prefix(16)),
                id2: UInt16(id[16]) << 8 | UInt16(id[17]),
                id3: UInt16(id[18]) << 8 | UInt16(id[19])
            )
        case .eddystoneUID(let f): self = .eddystoneUID(namespace: f.namespace, instance: f.instance)
        case .eddystoneURL(let f): self = .eddystoneURL(f.url)
        case .eddystoneEID(let f): self = .eddystoneEID(f.ephemeralID)
        case .eddystoneTLM: self = .eddystoneTLM(address)
        }
    }

    public var kind: BeaconKind {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case .eddystoneUID: .eddystoneUID
        case .eddystoneURL: .eddystoneURL
        case .eddystoneEID: .eddystoneEID
        case .eddystoneTLM: .eddystoneTLM
        }
    }

    /// The proximity UUID for region matching (iBeacon UUID, or AltBeacon id1); nil for Eddystone.
    public var proximityUUID: UUIDBytes? {
        switch self {
        case .iBeacon(let uuid, _, _), .altBeacon(let uuid, _, _): uuid
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .iBeacon(let uuid, let major, let minor), .altBeacon(let uuid, let major, let minor):
            "\(uuid):\(major):\(minor)"
        case .eddystoneUID(let namespace, let instance):
            "\(Self.hex(namespace)):\(Self.hex(instance))"
        case .eddystoneURL(let url): url
        case .eddystoneEID(let id): "eid:\(Self.hex(id))"
        case .eddystoneTLM(let address): "tlm:\(address)"
        }
    }

    /// In the order of `description`: ties in ranging (equal distances, equal levels) are broken by
    /// id, and building two strings per comparison was a tenth of a replay's time (callgrind). For
    /// iBeacon and AltBeacon ids, `UUID:major:minor`, the order is computed from the numbers: the
    /// upper-case UUID has a fixed width and its hex digits sort as its value, and the decimal tail
    /// compares as its bytes do (`tailKey`).
    public static func < (lhs: BeaconIdentity, rhs: BeaconIdentity) -> Bool {
        switch (lhs, rhs) {
        case (.iBeacon(let uuid1, let major1, let minor1), .iBeacon(let uuid2, let major2, let minor2)),
             (.iBeacon(let uuid1, let major1, let minor1), .altBeacon(let uuid2, let major2, let minor2)),
             (.altBeacon(let uuid1, let major1, let minor1), .iBeacon(let uuid2, let major2, let minor2)),
             (.altBeacon(let uuid1, let major1, let minor1), .altBeacon(let uuid2, let major2, let minor2)):
            if uuid1 != uuid2 { return uuid1 < uuid2 }
            return tailKey(major1, minor1) < tailKey(major2, minor2)
        default:
            return lhs.description < rhs.description
        }
    }

    /// The bytes of `"major:minor"` (at most 11) packed big-endian from the top of a 128-bit
    /// integer and zero-padded: integers compare as the strings do, a prefix (padded with zeros,
    /// below every digit and the colon) before any longer string.
    static func tailKey(_ major: UInt16, _ minor: UInt16) -> UInt128 {
        var key: UInt128 = 0
        var shift = 120
        func append(_ byte: UInt8) {
            key |= UInt128(byte) << UInt128(shift)
            shift -= 8
        }
        func appendDecimal(_ value: UInt16) {
            var divisor: UInt16 = 10000
            while divisor > 1, value < divisor { divisor /= 10 }
            while divisor > 0 {
                append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        appendDecimal(major)
        append(UInt8(ascii: ":"))
        appendDecimal(minor)
        return key
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
