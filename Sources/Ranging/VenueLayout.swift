/// A room or booth of a venue covered by several scanners (catalog key `rooms`, docs/formats.md
/// "Catalog format" and docs/venue.md). `id` is what events and topics name it by.
public struct VenueRoom: Sendable, Hashable {
    public var id: String
    public var name: String

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name ?? id
    }
}

/// A scanner of a venue (catalog key `scanners`): a beacontop agent's `--scanner` name or an
/// ESPresense node's room name, the room it covers, where it hangs, and how its receiver differs
/// from the others: receivers of one model read up to 10 dB apart, so presence compares RSSI
/// after adding `rssiOffset` (set by hand) or an offset learnt from `referenceBeacon`, a beacon
/// placed 1 m from this scanner.
public struct VenueScanner: Sendable, Hashable {
    public var id: String
    public var room: String
    public var position: FloorPosition?
    /// dB added to every RSSI this scanner reports.
    public var rssiOffset: Double?
    /// Id of the beacon 1 m from this scanner (`BeaconIdentity.description` form).
    public var referenceBeacon: String?

    public init(id: String, room: String, position: FloorPosition? = nil, rssiOffset: Double? = nil, referenceBeacon: String? = nil) {
        self.id = id
        self.room = room
        self.position = position
        self.rssiOffset = rssiOffset
        self.referenceBeacon = referenceBeacon.map(Exhibit.normalisedID)
    }
}
