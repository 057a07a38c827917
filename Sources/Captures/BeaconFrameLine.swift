import BeaconFormats
import HCI
import NDJSON

/// The NDJSON line of one beacon frame (`decode --frames --json`, `scan --frames --json`;
/// docs/formats.md "NDJSON frame line"): `{"t","address","addressType","event","rssi","kind","id","measuredPower"}`,
/// rssi and measuredPower null when unknown (no RSSI; Eddystone-TLM).
public enum BeaconFrameLine {
    /// Appends the line and its newline.
    public static func append(_ sighting: BeaconSighting, to writer: inout JSONWriter) {
        writer.raw("{\"t\":")
        writer.fixed(sighting.timestamp, decimals: 6)
        writer.raw(",\"address\":")
        writer.withCursor(reserving: 19) { address(sighting.address, to: &$0) }
        writer.raw(",\"addressType\":")
        writer.string(sighting.addressType.name)
        writer.raw(",\"event\":")
        writer.string(sighting.eventKind.name)
        writer.raw(",\"rssi\":")
        if let rssi = sighting.rssi { writer.integer(Int(rssi)) } else { writer.null() }
        writer.raw(",\"kind\":")
        writer.string(sighting.frame.kind.rawValue)
        writer.raw(",\"id\":")
        identity(sighting.identity, to: &writer)
        writer.raw(",\"measuredPower\":")
        if let power = sighting.frame.measuredPower { writer.integer(power) } else { writer.null() }
        writer.raw("}\n")
    }

    /// `"AA:BB:CC:DD:EE:FF"`, written straight into the line: building the String first cost more
    /// than decoding the packet did (`beacontop decode --frames --json`, perf).
    static func address(_ address: BDAddress, to cursor: inout JSONCursor) {
        cursor.byte(UInt8(ascii: "\""))
        for index in stride(from: 5, through: 0, by: -1) {
            cursor.upperHex(UInt8(truncatingIfNeeded: address.rawValue >> UInt64(8 * index)))
            if index > 0 { cursor.byte(UInt8(ascii: ":")) }
        }
        cursor.byte(UInt8(ascii: "\""))
    }

    /// The identity string, quoted; iBeacon ids are formatted in place, the others via `description`.
    static func identity(_ identity: BeaconIdentity, to writer: inout JSONWriter) {
        guard case .iBeacon(let uuid, let major, let minor) = identity else {
            writer.string(identity.description)
            return
        }
        writer.withCursor(reserving: 2 + 36 + 2 * (1 + JSONCursor.maximumIntegerLength)) { cursor in
            cursor.byte(UInt8(ascii: "\""))
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { cursor.byte(UInt8(ascii: "-")) }
                let half = index < 8 ? uuid.high : uuid.low
                cursor.upperHex(UInt8(truncatingIfNeeded: half >> UInt64(8 * (7 - index % 8))))
            }
            cursor.byte(UInt8(ascii: ":"))
            cursor.integer(Int(major))
            cursor.byte(UInt8(ascii: ":"))
            cursor.integer(Int(minor))
            cursor.byte(UInt8(ascii: "\""))
        }
    }
}
