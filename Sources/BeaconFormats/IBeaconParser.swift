/// iBeacon in manufacturer data: company 0x004C (Apple, little-endian `4C 00`), type 0x02,
/// length 0x15, then UUID (16), major (2, big-endian), minor (2, big-endian), measured power (1, signed).
/// Govee/Telink thermometers send it in the scan response without a Flags structure, so Flags are
/// never required.
@usableFromInline
enum IBeaconParser {
    @usableFromInline
    static let bodyLength = 2 + 2 + 21

    static func parse(_ value: ArraySlice<UInt8>) -> IBeaconFrame? {
        let bytes = value.span
        return parse(bytes, valueStart: 0, valueEnd: bytes.count)
    }

    /// The value is `bytes[valueStart..<valueEnd]`, read in place. Word loads, not a loop over
    /// bytes: the prefix is one 32-bit compare and the UUID two 64-bit loads (each bounds-checked
    /// by the span, once).
    @inlinable
    static func parse(_ bytes: borrowing Span<UInt8>, valueStart s: Int, valueEnd: Int) -> IBeaconFrame? {
        guard s >= 0, valueEnd <= bytes.count, valueEnd - s >= bodyLength else { return nil }
        let raw = bytes.bytes
        // 4C 00 02 15, read little-endian.
        guard UInt32(littleEndian: raw.unsafeLoadUnaligned(fromByteOffset: s, as: UInt32.self)) == 0x1502_004C else { return nil }
        let high = UInt64(bigEndian: raw.unsafeLoadUnaligned(fromByteOffset: s &+ 4, as: UInt64.self))
        let low = UInt64(bigEndian: raw.unsafeLoadUnaligned(fromByteOffset: s &+ 12, as: UInt64.self))
        let major = UInt16(bigEndian: raw.unsafeLoadUnaligned(fromByteOffset: s &+ 20, as: UInt16.self))
        let minor = UInt16(bigEndian: raw.unsafeLoadUnaligned(fromByteOffset: s &+ 22, as: UInt16.self))
        let power = Int8(bitPattern: bytes[s &+ 24])
        return IBeaconFrame(uuid: UUIDBytes(high: high, low: low), major: major, minor: minor, measuredPower: power)
    }
}
