/// A 48-bit Bluetooth device address. Stored as HCI sends it (least significant byte first),
/// printed as people write it (most significant first, `AA:BB:CC:DD:EE:FF`).
public struct BDAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address as an integer; bits 47..40 are the first printed byte.
    public var rawValue: UInt64

    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// Reads six little-endian bytes, as they appear in HCI events. `bytes` must hold at least six.
    public init<C: Collection>(littleEndian bytes: C) where C.Element == UInt8 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes.prefix(6) {
            value |= UInt64(byte) << shift
            shift += 8
        }
        self.init(rawValue: value)
    }

    /// Reads the six little-endian bytes at `index` of `bytes` in place (the decoders' hot path:
    /// no sub-slice, no generic iteration). The caller has checked that they are there.
    init(littleEndian bytes: ArraySlice<UInt8>, at index: Int) {
        var value: UInt64 = 0
        for offset in (0..<6).reversed() { value = value << 8 | UInt64(bytes[index + offset]) }
        self.init(rawValue: value)
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (case-insensitive); nil if it is not six hex pairs.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.init(rawValue: value)
    }

    /// The six bytes in HCI (little-endian) order.
    public var littleEndianBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (8 * UInt64($0))) }
    }

    public var description: String {
        let hex: [Character] = Array("0123456789ABCDEF")
        var text = ""
        text.reserveCapacity(17)
        for index in stride(from: 5, through: 0, by: -1) {
            let byte = Int((rawValue >> (8 * UInt64(index))) & 0xFF)
            text.append(hex[byte >> 4])
            text.append(hex[byte & 0xF])
            if index > 0 { text.append(":") }
        }
        return text
    }

    public static func < (lhs: BDAddress, rhs: BDAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// LE address type as reported in advertising reports. Core 5.4 Vol 4 Part E 7.7.65.2.
public enum AddressType: UInt8, Sendable {
    case publicDevice = 0x00
    case randomDevice = 0x01
    case publicIdentity = 0x02
    case randomIdentity = 0x03
    case anonymous = 0xFF

    @inlinable
    public init(code: UInt8) { self = AddressType(rawValue: code) ?? .anonymous }

    public var name: String {
        switch self {
        case .publicDevice: "public"
        case .randomDevice: "random"
        case .publicIdentity: "public-identity"
        case .randomIdentity: "random-identity"
        case .anonymous: "anonymous"
        }
    }
}
