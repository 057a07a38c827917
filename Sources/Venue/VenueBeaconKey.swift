import BeaconFormats

/// The beacon a venue key names, for the monitor's table (which follows beacons by identity).
/// Keys are `BeaconIdentity.description`s (`ESPresenseID.beaconKey`, beacontop's readings): an
/// iBeacon's `UUID:major:minor` (an AltBeacon prints the same and shows as an iBeacon), an
/// Eddystone-UID's `namespace:instance`, `eid:...`, or a URL. Other ESPresense ids (a phone's
/// `irk:...`, `name:...`) are no beacon: presence and the NDJSON lines carry them, the table not.
public enum VenueBeaconKey {
    public static func identity(_ key: String) -> BeaconIdentity? {
        if key.hasPrefix("http://") || key.hasPrefix("https://") { return .eddystoneURL(key) }
        if key.hasPrefix("eid:") {
            guard let bytes = UUIDBytes.hexBytes(key.dropFirst(4)), bytes.count == 8 else { return nil }
            return .eddystoneEID(bytes)
        }
        let parts = key.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, let uuid = UUIDBytes(parts[0]), let major = UInt16(parts[1]), let minor = UInt16(parts[2]) {
            return .iBeacon(uuid: uuid, major: major, minor: minor)
        }
        if parts.count == 2, let namespace = UUIDBytes.hexBytes(parts[0]), namespace.count == 10, let instance = UUIDBytes.hexBytes(parts[1]), instance.count == 6 {
            return .eddystoneUID(namespace: namespace, instance: instance)
        }
        return nil
    }
}
