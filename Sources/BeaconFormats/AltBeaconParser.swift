/// AltBeacon in manufacturer data (AltBeacon protocol specification, github.com/AltBeacon/spec):
/// company id (2, little-endian, any company), beacon code 0xBEAC (bytes `BE AC`), beacon id (20),
/// reference RSSI at 1 m (1, signed), manufacturer reserved (1). The AD length is 0x1B.
///
/// Lenient on one point, as the Android Beacon Library is: a structure of length 0x1A (the
/// reserved byte missing) still decodes, with `reserved` 0. The byte after the structure is never
/// read: it belongs to the next structure. Bytes beyond the reserved byte are ignored.
enum AltBeaconParser {
    /// Company, code, id and reference RSSI: the reserved byte may be absent.
    static let minimumLength = 2 + 2 + 20 + 1

    static func parse(_ value: ArraySlice<UInt8>) -> AltBeaconFrame? {
        guard value.count >= minimumLength else { return nil }
        let s = value.startIndex
        guard value[s + 2] == 0xBE, value[s + 3] == 0xAC else { return nil }
        return AltBeaconFrame(
            company: UInt16(value[s]) | UInt16(value[s + 1]) << 8,
            beaconID: Array(value[(s + 4)..<(s + 24)]),
            referenceRSSI: Int8(bitPattern: value[s + 24]),
            reserved: value.count > minimumLength ? value[s + 25] : 0
        )
    }
}
