/// iBeacon in manufacturer data: company 0x004C (Apple, little-endian `4C 00`), type 0x02,
/// length 0x15, then UUID (16), major (2, big-endian), minor (2, big-endian), measured power (1, signed).
/// Govee/Telink thermometers send it in the scan response without a Flags structure, so Flags are
/// never required.
enum IBeaconParser {
    static let bodyLength = 2 + 2 + 21

    static func parse(_ value: ArraySlice<UInt8>) -> IBeaconFrame? {
        guard value.count >= bodyLength else { return nil }
        let s = value.startIndex
        guard value[s] == 0x4C, value[s + 1] == 0x00, value[s + 2] == 0x02, value[s + 3] == 0x15 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(value[s + 4 + i]) }
        for i in 8..<16 { low = low << 8 | UInt64(value[s + 4 + i]) }
        let major = UInt16(value[s + 20]) << 8 | UInt16(value[s + 21])
        let minor = UInt16(value[s + 22]) << 8 | UInt16(value[s + 23])
        let power = Int8(bitPattern: value[s + 24])
        return IBeaconFrame(uuid: UUIDBytes(high: high, low: low), major: major, minor: minor, measuredPower: power)
    }
}
