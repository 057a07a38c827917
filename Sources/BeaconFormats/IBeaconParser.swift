/// iBeacon in manufacturer data: company 0x004C (Apple, little-endian `4C 00`), type 0x02,
/// length 0x15, then UUID (16), major (2, big-endian), minor (2, big-endian), measured power (1, signed).
/// Govee/Telink thermometers send it in the scan response without a Flags structure, so Flags are
/// never required.
enum IBeaconParser {
    static let bodyLength = 2 + 2 + 21

    static func parse(_ value: ArraySlice<UInt8>) -> IBeaconFrame? {
        parse(value, valueStart: value.startIndex, valueEnd: value.endIndex)
    }

    /// The value is `data[valueStart..<valueEnd]`, read in place: no sub-slice, no retain.
    static func parse(_ value: ArraySlice<UInt8>, valueStart s: Int, valueEnd: Int) -> IBeaconFrame? {
        guard valueEnd - s >= bodyLength, s >= value.startIndex, valueEnd <= value.endIndex else { return nil }
        guard value[s] == 0x4C, value[s + 1] == 0x00, value[s + 2] == 0x02, value[s + 3] == 0x15 else { return nil }
        // The UUID as two unaligned big-endian loads: a per-byte loop with bounds checks was the
        // slowest part of the hot path. The bounds were checked above.
        let uuidOffset = s + 4 - value.startIndex
        let (high, low) = value.withUnsafeBytes { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: uuidOffset, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: uuidOffset + 8, as: UInt64.self)))
        }
        let major = UInt16(value[s + 20]) << 8 | UInt16(value[s + 21])
        let minor = UInt16(value[s + 22]) << 8 | UInt16(value[s + 23])
        let power = Int8(bitPattern: value[s + 24])
        return IBeaconFrame(uuid: UUIDBytes(high: high, low: low), major: major, minor: minor, measuredPower: power)
    }
}
