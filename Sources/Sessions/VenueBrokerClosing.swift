import MQTT

/// The end of a venue view on a live broker (`scan mqtt://`, `monitor mqtt://`), the same for
/// both: the view has closed its open visits and handed their events to the client; the client
/// gets them to the broker before it disconnects, waiting a while for a broker that is away at
/// that moment, and standard error says what could not be delivered.
public enum VenueBrokerClosing {
    /// How long a view that is ending waits for a lost broker to come back (retrying every half
    /// second) so its last visit events reach it. Bounded: a view stopped by a person or a
    /// service manager must still end, and what is left is said on standard error.
    public static let brokerGrace = 5.0

    /// Closes `broker`'s connection, reporting a wait and anything left undelivered.
    public static func close(_ broker: BrokerSource) {
        let waiting = broker.undelivered
        let away = broker.statistics.map { !$0.connected } ?? false
        if waiting > 0, away {
            StandardError.report("\(broker.name): the broker is away; waiting up to \(Int(brokerGrace)) s to deliver \(waiting) messages (visit events, occupancy)")
        }
        let left = broker.close(brokerGrace: brokerGrace)
        if left > 0 {
            let why = broker.statistics?.lastFailure.map { " (\($0))" } ?? ""
            StandardError.report("\(broker.name): \(left) messages (visit events, occupancy) not delivered: the broker was unreachable\(why)")
        }
    }

    /// The monitor's line after its terminal is restored: the visits it closed on the way out
    /// (`published` false: a `--read-only` view, whose closing events went nowhere).
    public static func closedVisits(_ count: Int, broker: BrokerSource, published: Bool = true) -> String {
        let events = published
            ? "exit and visit events published with QoS 1, each exit at the last time its room heard the beacon"
            : "--read-only: no exit or visit events published"
        return "\(broker.name): \(count) open visit\(count == 1 ? "" : "s") closed at exit (\(events))"
    }
}
