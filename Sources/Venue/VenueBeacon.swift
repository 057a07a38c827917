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
    /// When its visit of `room` started (the first reading the entry rests on), while it has one.
    public var inRoomSince: Double?
    /// The room gaining evidence against `room` (or to place it, with no room), if one is.
    public var challenge: RoomPresence.Challenge?

    public init(id: String, room: String?, readings: [RoomPresence.ScannerLevel], inRoomSince: Double? = nil,
                challenge: RoomPresence.Challenge? = nil) {
        self.id = id
        self.room = room
        self.readings = readings
        self.inRoomSince = inRoomSince
        self.challenge = challenge
        best = room.flatMap { room in readings.first { $0.room == room } } ?? readings.first
        runnerUp = best.flatMap { best in readings.first { $0.room != best.room } }
    }
}

extension VenueView {
    /// Every beacon presence knows, sorted by id (readings expire with their lifetime and with
    /// their scanner, so a beacon no live scanner hears has no readings and no room).
    public var beacons: [VenueBeacon] {
        presence.beaconKeys.map { id in
            let room = presence.room(of: id)
            let visit = visits.openVisit(of: id)
            return VenueBeacon(id: id, room: room, readings: presence.levels(of: id), inRoomSince: visit?.room == room ? visit?.since : nil,
                               challenge: presence.challenge(of: id))
        }
    }
}
