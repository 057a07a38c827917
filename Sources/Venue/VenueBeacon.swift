/// One beacon as the venue view shows it: the room it is in, the scanner of that room that hears
/// it best (its distance is the one shown), the runner-up (the best reading from any other room),
/// and every live scanner's reading side by side.
public struct VenueBeacon: Sendable, Equatable {
    public var id: String
    /// Nil while presence has not put it in a room (evidence still piling up, or no live scanner).
    public var room: String?
    /// The best reading from `room`; with no room, the best reading of all.
    public var best: RoomPresence.ScannerLevel?
    public var runnerUp: RoomPresence.ScannerLevel?
    /// Strongest level first.
    public var readings: [RoomPresence.ScannerLevel]

    public init(id: String, room: String?, readings: [RoomPresence.ScannerLevel]) {
        self.id = id
        self.room = room
        self.readings = readings
        best = room.flatMap { room in readings.first { $0.room == room } } ?? readings.first
        runnerUp = best.flatMap { best in readings.first { $0.room != best.room } }
    }
}

extension VenueView {
    /// Every beacon presence knows, sorted by id (readings expire with their lifetime and with
    /// their scanner, so a beacon no live scanner hears has no readings and no room).
    public var beacons: [VenueBeacon] {
        presence.beaconKeys.map { VenueBeacon(id: $0, room: presence.room(of: $0), readings: presence.levels(of: $0)) }
    }
}
