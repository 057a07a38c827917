import HCI

/// Finds the beacon frame, if any, in one advertisement's AD structures. Pure and allocation-free
/// for iBeacon, the hot path of every replay.
public enum BeaconDecoder {
    /// The first beacon frame in `data`, or nil when the advertisement is not a beacon (or is a
    /// malformed one: a beacon whose structure is cut short is no beacon).
    ///
    /// Walks the structures by index rather than through `ADStructures`, and tries iBeacon on the
    /// caller's buffer before making a sub-slice: slices retain their storage, and at millions of
    /// reports a second those retains were a fifth of the time (perf, beacontop-bench decode-events).
    /// The walk stops exactly where `ADStructures` stops: at a zero length or an overrun.
    public static func decode(_ data: ArraySlice<UInt8>) -> BeaconFrame? {
        var position = data.startIndex
        let end = data.endIndex
        while position < end {
            let length = Int(data[position])
            let next = position + 1 + length
            guard length > 0, next <= end else { return nil }
            switch data[position + 1] {
            case ADType.manufacturerSpecificData:
                if let frame = IBeaconParser.parse(data, valueStart: position + 2, valueEnd: next) { return .iBeacon(frame) }
                if let frame = AltBeaconParser.parse(data[(position + 2)..<next]) { return .altBeacon(frame) }
            case ADType.serviceData16:
                if let frame = decodeServiceData(data[(position + 2)..<next]) { return frame }
            default:
                break
            }
            position = next
        }
        return nil
    }

    /// Every beacon frame in `data`, in order: one advertisement may carry several (an iBeacon and
    /// an Eddystone-TLM, say). Stops, like `decode`, where a structure overruns the data. Walks by
    /// index and reads iBeacon in place, as `decode` does, since every capture decode runs it.
    public static func forEachFrame(in data: ArraySlice<UInt8>, _ body: (BeaconFrame) -> Void) {
        var position = data.startIndex
        let end = data.endIndex
        while position < end {
            let length = Int(data[position])
            let next = position + 1 + length
            guard length > 0, next <= end else { return }
            switch data[position + 1] {
            case ADType.manufacturerSpecificData:
                if let frame = IBeaconParser.parse(data, valueStart: position + 2, valueEnd: next) {
                    body(.iBeacon(frame))
                } else if let frame = AltBeaconParser.parse(data[(position + 2)..<next]) {
                    body(.altBeacon(frame))
                }
            case ADType.serviceData16:
                if let frame = decodeServiceData(data[(position + 2)..<next]) { body(frame) }
            default:
                break
            }
            position = next
        }
    }

    /// iBeacon or AltBeacon from a manufacturer-specific data value (company id first, little-endian).
    /// iBeacon is tried first: it is the hot path and allocates nothing.
    public static func decodeManufacturerData(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        if let frame = IBeaconParser.parse(value) { return .iBeacon(frame) }
        if let frame = AltBeaconParser.parse(value) { return .altBeacon(frame) }
        return nil
    }

    /// Eddystone from a 16-bit service data value (service UUID first, little-endian). Only the
    /// structure's own bytes are examined, so "aa fe" inside manufacturer data is never Eddystone.
    public static func decodeServiceData(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        EddystoneParser.parse(value)
    }
}
