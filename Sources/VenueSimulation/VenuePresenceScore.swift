import Ranging
import Venue

/// The presence targets of issue 11, scored on a simulated venue: the view's presence (fed every
/// reading in time order, ticked once a second) against where each walker really is.
///
/// - `rightShare`: ticks in the right room among *dwell ticks*: the walker has stayed in its room
///   for at least `settle` seconds (5). Dwell ticks in the failed scanner's room after it failed
///   are left out: no scanner covers that room any more, so no room is right there.
/// - `changesPerTrueChange`: presence changes (entries included) over true room changes (entries
///   included; a walk through a room counts as entering it).
/// - `failedRoomTicks`: ticks with any walker placed in the failed scanner's room more than
///   `failureGrace` seconds (30) after it failed; the target is none.
public struct VenuePresenceScore: Sendable, Equatable {
    public var dwellTicks = 0
    public var rightTicks = 0
    public var trueChanges = 0
    public var presenceChanges = 0
    public var failedRoomTicks = 0

    public static let settle = 5.0
    public static let failureGrace = 30.0

    public var rightShare: Double { dwellTicks == 0 ? 0 : Double(rightTicks) / Double(dwellTicks) }
    public var changesPerTrueChange: Double { trueChanges == 0 ? 0 : Double(presenceChanges) / Double(trueChanges) }

    public init() {}

    public static func + (a: VenuePresenceScore, b: VenuePresenceScore) -> VenuePresenceScore {
        var sum = a
        sum.dwellTicks += b.dwellTicks
        sum.rightTicks += b.rightTicks
        sum.trueChanges += b.trueChanges
        sum.presenceChanges += b.presenceChanges
        sum.failedRoomTicks += b.failedRoomTicks
        return sum
    }

    /// Runs the venue's readings through `RoomPresence` with `settings` and scores it; `catalog`
    /// replaces the venue's own (to take its reference beacons away, say).
    public static func score(_ venue: SimulatedVenue, settings: PresenceSettings = PresenceSettings(), catalog: ExhibitCatalog? = nil) -> VenuePresenceScore {
        let plan = venue.configuration.plan
        let readings = venue.readings()
        var presence = RoomPresence(catalog: catalog ?? venue.catalog, settings: settings)
        var score = VenuePresenceScore()
        let badges = Set(venue.walks.indices.map(SimulatedVenue.badge))
        var lastTrueRoom = [Int?](repeating: nil, count: venue.walks.count)
        var next = 0
        var tick = 1.0
        let failedRoom = venue.failure.map { plan.roomName(venue.scanners[$0.scanner].room) }
        while tick <= venue.configuration.duration {
            var changes: [PresenceChange] = []
            while next < readings.count, readings[next].time <= tick {
                if let change = presence.ingest(readings[next]) { changes.append(change) }
                next += 1
            }
            changes += presence.tick(at: tick)
            score.presenceChanges += changes.filter { badges.contains($0.beacon) }.count
            for walker in venue.walks.indices {
                guard let truth = venue.truth(walker: walker, at: tick) else { continue }
                if lastTrueRoom[walker] != truth.room {
                    score.trueChanges += 1
                    lastTrueRoom[walker] = truth.room
                }
                let placed = presence.room(of: SimulatedVenue.badge(walker))
                let failedHere = venue.failure.map { tick >= $0.time && venue.scanners[$0.scanner].room == truth.room } ?? false
                if let since = truth.stayingSince, tick - since >= settle, !failedHere {
                    score.dwellTicks += 1
                    if placed == plan.roomName(truth.room) { score.rightTicks += 1 }
                }
                if let failure = venue.failure, tick >= failure.time + failureGrace, placed != nil, placed == failedRoom {
                    score.failedRoomTicks += 1
                }
            }
            tick += 1
        }
        return score
    }
}
