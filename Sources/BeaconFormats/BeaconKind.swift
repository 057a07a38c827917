/// The beacon formats beacontop understands. The raw value is the `kind` printed in NDJSON.
public enum BeaconKind: String, Sendable, CaseIterable, Codable {
    case iBeacon = "ibeacon"
    case altBeacon = "altbeacon"
    case eddystoneUID = "eddystone-uid"
    case eddystoneURL = "eddystone-url"
    case eddystoneTLM = "eddystone-tlm"
    case eddystoneEID = "eddystone-eid"
}
