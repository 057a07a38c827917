/// Eddystone in 16-bit service data (github.com/google/eddystone, protocol-specification.md):
/// service UUID 0xFEAA (bytes `AA FE`), then a frame type byte. Multi-byte fields are big-endian.
///
/// - 0x00 UID: TX power at 0 m, namespace (10), instance (6), two RFU bytes. Beacons that drop the
///   RFU bytes (length 0x15) are accepted.
/// - 0x10 URL: TX power at 0 m, scheme, compressed URL (0...17 bytes), see `EddystoneURLCodec`.
/// - 0x20 TLM: version 0x00 plain (battery mV, 8.8 temperature, PDU count, 0.1 s since boot) or
///   0x01 encrypted (eTLM.md: 12 encrypted bytes, 16-bit salt, 16-bit MIC).
/// - 0x30 EID: TX power at 0 m, 8-byte ephemeral id.
///
/// Anything else is not Eddystone: other frame types (0x40 and others seen in the wild), other
/// TLM versions, a body shorter than its frame type needs, a URL scheme beyond 0x03 or a URL longer
/// than 17 bytes. The 16-bit service UUID list (AD type 0x03) the spec asks for is not required:
/// the service data alone says what the frame is. Bytes after a fixed-size frame inside the same
/// structure are ignored; bytes after the structure are never read.
enum EddystoneParser {
    static let uidLength = 2 + 2 + 16
    static let tlmLength = 2 + 2 + 12
    static let encryptedTLMLength = 2 + 2 + 12 + 2 + 2
    static let eidLength = 2 + 2 + 8
    /// Frame type, TX power and scheme; the URL may then be empty.
    static let urlMinimumLength = 2 + 3
    static let maximumEncodedURLLength = 17

    static func parse(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        guard value.count >= 3 else { return nil }
        let s = value.startIndex
        guard value[s] == 0xAA, value[s + 1] == 0xFE else { return nil }
        switch value[s + 2] {
        case 0x00:
            guard value.count >= uidLength else { return nil }
            return .eddystoneUID(EddystoneUIDFrame(
                txPowerAt0m: Int8(bitPattern: value[s + 3]),
                namespace: Array(value[(s + 4)..<(s + 14)]),
                instance: Array(value[(s + 14)..<(s + 20)])
            ))
        case 0x10:
            guard value.count >= urlMinimumLength, value.count - urlMinimumLength <= maximumEncodedURLLength,
                  let url = EddystoneURLCodec.decode(scheme: value[s + 4], body: value[(s + 5)...])
            else { return nil }
            return .eddystoneURL(EddystoneURLFrame(txPowerAt0m: Int8(bitPattern: value[s + 3]), url: url))
        case 0x20:
            return parseTLM(value)
        case 0x30:
            guard value.count >= eidLength else { return nil }
            return .eddystoneEID(EddystoneEIDFrame(
                txPowerAt0m: Int8(bitPattern: value[s + 3]),
                ephemeralID: Array(value[(s + 4)..<(s + 12)])
            ))
        default:
            return nil
        }
    }

    private static func parseTLM(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        let s = value.startIndex
        guard value.count >= 4 else { return nil }
        switch value[s + 3] {
        case 0x00:
            guard value.count >= tlmLength else { return nil }
            let rawTemperature = Int16(bitPattern: UInt16(big: value, at: s + 6))
            return .eddystoneTLM(EddystoneTLMFrame(version: 0, payload: .plain(
                batteryMillivolts: UInt16(big: value, at: s + 4),
                temperatureCelsius: rawTemperature == Int16.min ? nil : Double(rawTemperature) / 256,
                advertisingCount: UInt32(big: value, at: s + 8),
                uptimeTenths: UInt32(big: value, at: s + 12)
            )))
        case 0x01:
            guard value.count >= encryptedTLMLength else { return nil }
            return .eddystoneTLM(EddystoneTLMFrame(version: 1, payload: .encrypted(
                data: Array(value[(s + 4)..<(s + 16)]),
                salt: UInt16(big: value, at: s + 16),
                integrityCheck: UInt16(big: value, at: s + 18)
            )))
        default:
            return nil
        }
    }
}

extension UInt16 {
    /// Two big-endian bytes at `index`; the caller has checked the length.
    init(big bytes: ArraySlice<UInt8>, at index: Int) {
        self = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }
}

extension UInt32 {
    /// Four big-endian bytes at `index`; the caller has checked the length.
    init(big bytes: ArraySlice<UInt8>, at index: Int) {
        self = UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }
}
