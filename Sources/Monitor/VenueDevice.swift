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
    /// Every live scanner's reading, the runner-up from another room and the placing scanner, as a
    /// venue beacon's detail pane has them: Enter on the list shows them (`DeviceDetailView`).
    public var placement: VenuePlacement
    /// Seconds since its visit of `room` started (its first reading there), at the snapshot's time.
    public var inRoomFor: Double?
    /// The room gaining evidence against `room` (to place it, with none), as presence has it.
    public var challenge: Challenge?

    /// Presence's evidence for another room, in dB·s beyond the hysteresis (docs/venue.md "The
    /// presence rule"): the room moves, or is first placed, when `evidence` reaches `threshold`.
    public struct Challenge: Sendable, Equatable {
        public var room: String
        public var evidence: Double
        public var threshold: Double

        public init(room: String, evidence: Double, threshold: Double) {
            self.room = room
            self.evidence = evidence
            self.threshold = threshold
        }
    }

    /// `placement` defaults to the one reading (a list that shows no detail needs no more).
    public init(id: String, room: String?, reading: VenuePlacement.ScannerCell, placement: VenuePlacement? = nil,
                inRoomFor: Double? = nil, challenge: Challenge? = nil) {
        self.id = id
        self.room = room
        self.reading = reading
        self.placement = placement ?? VenuePlacement(room: room, scanner: reading.scanner, runnerUp: nil, scanners: [reading])
        self.inRoomFor = inRoomFor
        self.challenge = challenge
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
