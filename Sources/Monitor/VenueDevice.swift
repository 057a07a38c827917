/// One device a venue tracks (the `d` list of `monitor mqtt://BROKER` or a venue recording): a
/// reading whose ESPresense id names no beacon (a phone's `irk:...`, a `name:...`, a MAC address).
/// Presence, visits and the event log follow it under that id as it came (docs/venue.md, "Beacon
/// ids"); the table follows beacons by identity, which a device has none of, so it has a list of its
/// own. It leaves the list when presence forgets it, as a beacon leaves the table.
public struct VenueDevice: Sendable, Equatable {
    /// The id as the scanner wrote it: from the network, so only ever drawn through the screen's
    /// sanitiser.
    public var id: String
    /// Nil while presence has not put it in a room (evidence still piling up).
    public var room: String?
    /// The reading shown: the best from its room, with no room the best of all (as a beacon's row).
    public var reading: VenuePlacement.ScannerCell

    public init(id: String, room: String?, reading: VenuePlacement.ScannerCell) {
        self.id = id
        self.room = room
        self.reading = reading
    }
}

extension VenueDevice {
    /// `/` on the device list: `needle` (lowercased, trimmed) is in the id, the room or the scanner,
    /// in any case. Plain text only: a device has no UUID for the table's region filter to match,
    /// and a person picks phones out by what the list shows (`irk:`, `café`, a scanner's name).
    func matches(_ needle: String) -> Bool {
        id.lowercased().contains(needle) || (room?.lowercased().contains(needle) ?? false)
            || reading.scanner.lowercased().contains(needle)
    }
}
