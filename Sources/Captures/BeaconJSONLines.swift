import BeaconFormats
import HCI

/// The two NDJSON line shapes of `beacontop decode --json` (documented in docs/formats.md "NDJSON frame line" and "NDJSON beacon summary line").
extension JSONLineBuilder {
    /// `{"t":…,"address":…,"addressType":…,"event":…,"rssi":…,"kind":…,"id":…,"measuredPower":…}`;
    /// rssi and measuredPower are null when unknown (no RSSI; Eddystone-TLM).
    public mutating func frameLine(_ sighting: BeaconSighting) {
        begin()
        field("t", seconds: sighting.timestamp)
        key("address")
        address(sighting.address)
        field("addressType", sighting.addressType.name)
        field("event", sighting.eventKind.name)
        field("rssi", sighting.rssi.map { Int($0) })
        field("kind", sighting.frame.kind.rawValue)
        key("id")
        identity(sighting.identity)
        field("measuredPower", sighting.frame.measuredPower)
        end()
    }

    /// `"AA:BB:CC:DD:EE:FF"`, written straight into the line: building the String first cost more
    /// than decoding the packet did (`beacontop decode --frames --json`, perf).
    mutating func address(_ address: BDAddress) {
        bytes.append(UInt8(ascii: "\""))
        for index in stride(from: 5, through: 0, by: -1) {
            hexByte(UInt8(truncatingIfNeeded: address.rawValue >> UInt64(8 * index)), upperCase: true)
            if index > 0 { bytes.append(UInt8(ascii: ":")) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The identity string, quoted; iBeacon ids are formatted in place, the others via `description`.
    mutating func identity(_ identity: BeaconIdentity) {
        guard case .iBeacon(let uuid, let major, let minor) = identity else {
            string(identity.description)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
            let half = index < 8 ? uuid.high : uuid.low
            hexByte(UInt8(truncatingIfNeeded: half >> UInt64(8 * (7 - index % 8))), upperCase: true)
        }
        bytes.append(UInt8(ascii: ":"))
        integer(Int(major))
        bytes.append(UInt8(ascii: ":"))
        integer(Int(minor))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func hexByte(_ byte: UInt8, upperCase: Bool) {
        func digit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : (upperCase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
        }
        bytes.append(digit(byte >> 4))
        bytes.append(digit(byte & 0xF))
    }

    /// `{"id":…,"kind":…,"frames":…,"rssiMin":…,"rssiMedian":…,"rssiMax":…,"framesWithoutRssi":…,
    /// "measuredPowers":[{"dBm":…,"frames":…}],"firstSeen":…,"lastSeen":…,"lastAddress":…}`.
    public mutating func summaryLine(_ tally: BeaconTally) {
        begin()
        field("id", tally.identity.description)
        field("kind", tally.identity.kind.rawValue)
        field("frames", tally.frames)
        field("rssiMin", tally.rssiMinimum)
        key("rssiMedian")
        if let median = tally.rssiMedian { number(median) } else { null() }
        field("rssiMax", tally.rssiMaximum)
        field("framesWithoutRssi", tally.framesWithoutRSSI)
        key("measuredPowers")
        raw("[")
        for (index, power) in tally.measuredPowers.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"dBm\":")
            integer(power.dBm)
            raw(",\"frames\":")
            integer(power.frames)
            raw("}")
        }
        raw("]")
        field("firstSeen", seconds: tally.firstSeen)
        field("lastSeen", seconds: tally.lastSeen)
        key("lastAddress")
        if let address = tally.lastAddress { string(address.description) } else { null() }
        end()
    }
}
