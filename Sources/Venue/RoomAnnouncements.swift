/// Which rooms' retained occupancy the view has yet to publish once. A view that died without its
/// clean-up (`kill -9`, a power cut: it has no will) leaves its last retained occupancy on the
/// broker, and nothing corrected it until an event touched that room again, so a dashboard showed
/// visitors in a room everyone had left, for as long as nobody entered it. The view therefore
/// publishes every room it knows (the catalog's, and each scanner's room once heard, a retained
/// status included) once: with the room's first event, or, when none came, `delay` seconds of
/// its clock after it learnt the room, time enough for whoever is there to have entered, so a
/// dashboard does not see a room emptied and refilled while the view starts.
struct RoomAnnouncements: Sendable {
    static let delay = 10.0
    /// Rooms not yet published, with the time the view learnt each.
    private var pending: [String: Double] = [:]
    private var done: Set<String> = []
    /// The scanner registry's admissions when last looked at: only a new scanner brings a new room.
    private var scannersSeen = -1

    /// Notes the rooms of scanners taken in since the last call (and the catalog's rooms, the first
    /// time): `newRooms` is asked only when the registry took in a scanner.
    mutating func learn(rooms newRooms: @autoclosure () -> [String], admitted: Int, at time: Double) {
        guard admitted != scannersSeen else { return }
        scannersSeen = admitted
        for room in newRooms() where !done.contains(room) && pending[room] == nil { pending[room] = time }
    }

    /// A room the view no longer knows (its only scanner was forgotten): true when its occupancy
    /// was published, and the retained message is to be deleted, so the broker keeps no more rooms
    /// than the view knows.
    mutating func forget(_ room: String) -> Bool {
        pending[room] = nil
        return done.remove(room) != nil
    }

    /// A room an event has just published: nothing left to announce for it.
    mutating func published(_ room: String) {
        guard !done.contains(room) else { return }
        pending[room] = nil
        done.insert(room)
    }

    /// The rooms whose delay has passed at `time` (every one left when `all`: the view is ending),
    /// in name order, now published.
    mutating func due(at time: Double, all: Bool = false) -> [String] {
        guard !pending.isEmpty else { return [] }
        let rooms = pending.filter { all || time - $0.value >= Self.delay }.keys.sorted()
        for room in rooms { published(room) }
        return rooms
    }
}
