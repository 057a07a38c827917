import BeaconFormats
import HCI

/// The two NDJSON line shapes of `beacontop decode --json` (documented in README "Capture files").
extension JSONLineBuilder {
    /// `{"t":…,"address":…,"addressType":…,"event":…,"rssi":…,"kind":…,"id":…,"measuredPower":…}`;
    /// rssi and measuredPower are null when unknown (no RSSI; Eddystone-TLM).
    public mutating func frameLine(_ sighting: BeaconSighting) {
        begin()
        field("t", seconds: sighting.timestamp)
        field("address", sighting.address.description)
        field("addressType", sighting.addressType.name)
        field("event", sighting.eventKind.name)
        field("rssi", sighting.rssi.map { Int($0) })
        field("kind", sighting.frame.kind.rawValue)
        field("id", sighting.identity.description)
        field("measuredPower", sighting.frame.measuredPower)
        end()
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
