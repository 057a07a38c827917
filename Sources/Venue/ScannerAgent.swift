import Ranging

/// What a scanner agent publishes, as a pure function of its ranging ticks and time: per beacon
/// that `PublishPolicy` says is due, ESPresense's device message (when the beacon has an
/// ESPresense id) and beacontop's reading; telemetry (retained) at its start and every
/// `telemetryInterval`; the retained
/// `online` birth and `offline` will for its MQTT client. The command that runs it owns the
/// client and the clock.
public struct ScannerAgent: Sendable {
    public let scanner: String
    public let topics: VenueTopics
    public var policy: PublishPolicy
    public let telemetryInterval: Double
    public let startedAt: Double
    /// What its telemetry says of the radio: `ok` until the source says it lost the controller.
    public private(set) var radio: ScannerTelemetry.RadioState = .ok
    /// Per beacon, the last packet's time its latest published reading rested on.
    private var publishedPacket: [String: Double] = [:]
    private var nextTelemetry: Double

    public init(scanner: String, topics: VenueTopics = VenueTopics(), policy: PublishPolicy = PublishPolicy(),
                telemetryInterval: Double = ScannerTelemetry.defaultInterval, startedAt: Double) {
        self.scanner = scanner
        self.topics = topics
        self.policy = policy
        self.telemetryInterval = telemetryInterval
        self.startedAt = startedAt
        // The first at the start (the scan's first tick), then every interval: telemetry is
        // retained, and a run's first replaces what the last run left there at once, not 10 s in
        // (a view started meanwhile read the last run's radio state beside this run's `online`).
        nextTelemetry = startedAt
    }

    /// Published on every connect (retained): the scanner is up.
    public var birth: VenueOutgoing {
        VenueOutgoing(topic: topics.status(scanner: scanner), payload: Array(VenueTopics.online.utf8), atLeastOnce: true, retain: true)
    }

    /// The MQTT client's last will (retained), and what a clean stop publishes.
    public var will: VenueOutgoing {
        VenueOutgoing(topic: topics.status(scanner: scanner), payload: Array(VenueTopics.offline.utf8), atLeastOnce: true, retain: true)
    }

    /// Seconds a view takes a reading as live from when it arrives (`PresenceSettings`): a reading
    /// that waited for the broker until its beacon's last packet is older than this is not sent.
    public static let readingLifetime = PresenceSettings().readingLifetime

    /// The messages one ranging tick makes due. Stale beacons are not published, and beacons
    /// not heard for a minute are forgotten by the policy. Readings expire (`expiresAfter`) once
    /// their beacon's last packet is a view's reading lifetime old: a view takes a reading as
    /// heard when it arrives (scanners' clocks are not trusted, and ESPresense's message carries
    /// no time), so one sent after a broker outage would show a beacon that left meanwhile.
    ///
    /// A beacon with no packet since its last message gets no new one: ranging keeps it unstale
    /// for 5 s after its last packet, and each repeat was taken by views as heard when it arrived,
    /// so a beacon that left (or a lost controller's beacons) stayed present 5 s longer and its
    /// visit's end (the room's last reading) came 5-6 s after its last packet (ESPresense nodes
    /// publish per packet too).
    public mutating func messages(for snapshot: RangingSnapshot) -> [VenueOutgoing] {
        var out: [VenueOutgoing] = []
        for reading in snapshot.beacons where !reading.isStale {
            if let published = publishedPacket[reading.id], reading.lastSeen <= published { continue }
            let distance = reading.accuracy >= 0 ? reading.accuracy : nil
            guard policy.shouldPublish(beacon: reading.id, distance: distance, at: snapshot.time) else { continue }
            publishedPacket[reading.id] = reading.lastSeen
            let expiresAfter = max(0, Self.readingLifetime - max(0, snapshot.time - reading.lastSeen))
            if let message = ESPresenseDeviceMessage(reading: reading) {
                out.append(VenueOutgoing(topic: topics.espresenseDevice(id: message.id, scanner: scanner), payload: message.json(),
                                         expiresAfter: expiresAfter))
            }
            out.append(VenueOutgoing(topic: topics.readings(scanner: scanner),
                                     payload: ScannerReadingMessage.json(scanner: scanner, time: snapshot.time, reading: reading),
                                     expiresAfter: expiresAfter))
        }
        policy.forget(before: snapshot.time - 60)
        if publishedPacket.count > snapshot.beacons.count { publishedPacket = publishedPacket.filter { $0.value >= snapshot.time - 60 } }
        return out
    }

    /// True when telemetry is due at `time` (a check that needs no counts).
    public func telemetryDue(at time: Double) -> Bool { time >= nextTelemetry }

    /// The radio's state changed: true when it differs from what telemetry said so far (the caller
    /// then sends telemetry at once, `force`d, so a view learns it now rather than in up to 10 s).
    /// A reason is held to what a view takes (a name's rules): control characters become spaces,
    /// and it is cut to under 200 bytes.
    public mutating func setRadio(_ state: ScannerTelemetry.RadioState) -> Bool {
        var state = state
        if case .lost(let reason) = state {
            var clean = ""
            for scalar in reason.unicodeScalars {
                let control = scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
                guard clean.utf8.count + scalar.utf8.count <= 196 else {
                    clean += "…"
                    break
                }
                clean.unicodeScalars.append(control ? " " : scalar)
            }
            state = .lost(reason: clean.isEmpty ? "lost" : clean)
        }
        guard state != radio else { return false }
        radio = state
        return true
    }

    /// Telemetry when it is due at `time` (nil otherwise), with the client's counts.
    public mutating func telemetry(at time: Double, advertsPerSecond: Double, beacons: Int, published: Int, buffered: Int,
                                   dropped: Int, droppedQoS1: Int, droppedStale: Int = 0, force: Bool = false) -> VenueOutgoing? {
        guard time >= nextTelemetry || force else { return nil }
        while nextTelemetry <= time { nextTelemetry += telemetryInterval }
        var report = ScannerTelemetry(scanner: scanner, time: time, uptime: time - startedAt, advertsPerSecond: advertsPerSecond,
                                      beacons: beacons, published: published, buffered: buffered, dropped: dropped, droppedQoS1: droppedQoS1)
        report.droppedStale = droppedStale
        report.radio = radio
        // Retained, so a view or backend that subscribes later learns the radio's state (and the
        // counts) at once: a view started while the radio was lost showed the scanner `online`
        // until the next telemetry, up to 10 s. The status topic stays `online`/`offline` alone,
        // as ESPresense's and Home Assistant-style consumers read it.
        return VenueOutgoing(topic: topics.telemetry(scanner: scanner), payload: report.json(), retain: true)
    }
}
