import Ranging

/// The venue view's logic in one value: broker messages in (topic, payload, arrival time),
/// presence decided, and the visit events (QoS 1) and retained occupancy to publish out. Pure:
/// the owner loop feeds it what its MQTT client delivered, calls `tick` about once a second, and
/// publishes what comes back; a replay of a recorded venue session goes through the same calls.
public struct VenueView: Sendable {
    public let topics: VenueTopics
    public private(set) var decoder: VenueMessageDecoder
    public private(set) var presence: RoomPresence
    public private(set) var visits = VisitTracker()
    public private(set) var firstTime: Double?
    public private(set) var lastTime: Double?
    /// Visit events decided since the last `takeEvents()` (the NDJSON tick line's `events`, the
    /// monitor's event log); bounded by `pendingEventLimit`, the oldest dropped first.
    public private(set) var pendingEvents: [VisitEvent] = []
    public static let pendingEventLimit = 10_000
    private let catalog: ExhibitCatalog?
    private var announcements = RoomAnnouncements()
    private var announcementsStarted = false

    public init(catalog: ExhibitCatalog? = nil, topics: VenueTopics = VenueTopics(), settings: PresenceSettings = PresenceSettings()) {
        self.topics = topics
        self.catalog = catalog
        decoder = VenueMessageDecoder(topics: topics)
        presence = RoomPresence(catalog: catalog, settings: settings)
    }

    /// `finish` was called: the session is over, and nothing after it opens a visit again.
    public private(set) var isFinished = false

    /// One message from the broker; returns what to publish because of it.
    /// `retained`: the broker kept it (a scanner's last status; a reading so delivered is refused).
    public mutating func receive(topic: String, payload: [UInt8], at time: Double, retained: Bool = false) -> [VenueOutgoing] {
        guard !isFinished else { return [] }
        note(time)
        guard let input = decoder.decode(topic: topic, payload: payload, receivedAt: time, retained: retained) else { return announce(at: time) }
        let admitted = presence.scanners.admitted
        let forgotten = presence.scanners.forgotten
        var out = publish(presence.ingest(input), at: time)
        if presence.scanners.forgotten != forgotten, let gone = presence.scanners.lastForgotten { out += forget(room: gone.room) }
        return out + announce(at: time, newScanner: presence.scanners.admitted != admitted ? input.scanner : nil)
    }

    /// Messages refused, by reason: the decoder's, and those naming a new scanner beyond
    /// `PresenceSettings.unlistedScannerLimit` (`ScannerRegistry.heard`).
    public var refused: [String: Int] {
        var refused = decoder.refused
        if presence.scanners.refusedMessages > 0 { refused[Self.scannerLimitRefusal] = presence.scanners.refusedMessages }
        return refused
    }

    public var refusedTotal: Int { decoder.refusedTotal + presence.scanners.refusedMessages }
    public static let scannerLimitRefusal = "new scanner over the limit"

    /// The room of a forgotten scanner leaves the announcements, and its retained occupancy, if the
    /// view published one, is deleted (an empty retained message, MQTT 3.1.1 §3.3.1.3), unless the
    /// catalog names the room.
    private mutating func forget(room: String) -> [VenueOutgoing] {
        if let catalog, catalog.rooms.contains(where: { $0.id == room }) || catalog.scanners.contains(where: { $0.room == room }) { return [] }
        guard announcements.forget(room) else { return [] }
        return [VenueOutgoing(topic: topics.occupancy(room: room), payload: [], atLeastOnce: true, retain: true)]
    }

    /// Expiry and evidence without new messages; call about once a second.
    public mutating func tick(at time: Double) -> [VenueOutgoing] {
        guard !isFinished else { return [] }
        note(time)
        return publish(presence.tick(at: time), at: time) + announce(at: time)
    }

    /// Ends every open visit (the end of a session or a replay; once): each exit at the last time
    /// a scanner of its room heard the beacon, the honest end of its dwell (the session's end
    /// would add the time since, up to the readings' lifetime or a whole silence), and each
    /// room's occupancy, now empty, at `time` (with any room not yet announced).
    public mutating func finish(at time: Double) -> [VenueOutgoing] {
        guard !isFinished else { return [] }
        isFinished = true
        note(time)
        let presence = presence
        let events = visits.closeAll(at: time) { beacon, room in presence.lastHeard(beacon, in: room) }
        remember(events)
        // A view stopped within the delay still replaces what an earlier one left.
        return outgoing(events, at: time) + announce(at: time, all: true)
    }

    /// The visit events decided since the last call.
    public mutating func takeEvents() -> [VisitEvent] {
        defer { pendingEvents.removeAll(keepingCapacity: true) }
        return pendingEvents
    }

    private mutating func remember(_ events: [VisitEvent]) {
        guard !events.isEmpty else { return }
        pendingEvents += events
        if pendingEvents.count > Self.pendingEventLimit { pendingEvents.removeFirst(pendingEvents.count - Self.pendingEventLimit) }
    }

    /// Per-room visits, dwell and foot traffic from the first message to the last.
    public var report: VenueReport {
        VenueReport(totals: visits.totals, catalog: catalog, start: firstTime ?? 0, end: lastTime ?? 0)
    }

    private mutating func note(_ time: Double) {
        if firstTime == nil { firstTime = time }
        lastTime = max(lastTime ?? time, time)
    }

    /// The occupancy of each room known for `RoomAnnouncements.delay` without an event yet, retained:
    /// it replaces what a view that died without its clean-up left on the broker.
    /// The first call learns the catalog's rooms and its scanners'; later ones the room of the one
    /// scanner a message brought in (walking every scanner per new name made a flood of names quadratic).
    private mutating func announce(at time: Double, all: Bool = false, newScanner: String? = nil) -> [VenueOutgoing] {
        let registry = presence.scanners
        if !announcementsStarted {
            announcementsStarted = true
            announcements.learn(rooms: (catalog?.rooms.map(\.id) ?? []) + registry.scanners.values.map(\.room), admitted: registry.admitted, at: time)
        } else if let newScanner {
            announcements.learn(rooms: [registry.room(of: newScanner)], admitted: registry.admitted, at: time)
        }
        return announcements.due(at: time, all: all).map { occupancy(of: $0, at: time) }
    }

    private func occupancy(of room: String, at time: Double) -> VenueOutgoing {
        VenueOutgoing(topic: topics.occupancy(room: room), payload: visits.occupancy(of: room, at: time).json(), atLeastOnce: true, retain: true)
    }

    private mutating func publish(_ changes: [PresenceChange], at time: Double) -> [VenueOutgoing] {
        var events: [VisitEvent] = []
        for change in changes { events += visits.apply(change) }
        remember(events)
        return outgoing(events, at: time)
    }

    private mutating func outgoing(_ events: [VisitEvent], at time: Double) -> [VenueOutgoing] {
        var out = events.map { event in
            VenueOutgoing(topic: topics.event(event.kind, room: event.room), payload: event.json(), atLeastOnce: true)
        }
        for room in VisitTracker.roomsTouched(by: events) {
            announcements.published(room)
            out.append(occupancy(of: room, at: time))
        }
        return out
    }
}
