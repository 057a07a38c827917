import MQTT
import Ranging
import Venue

/// The scanner agent behind `scan SOURCE --publish mqtt://BROKER --scanner NAME`: each ranging tick
/// of the scan goes through `ScannerAgent` (which beacons are due, ESPresense's and beacontop's
/// messages, telemetry) and out through the MQTT client, whose bounded buffer holds them while the
/// broker is away. The client's birth and will are the agent's retained `online` and `offline`;
/// `stop()` publishes `offline` itself (a clean disconnect suppresses the will), so every exit of
/// `scan` that reaches its clean-up says the scanner is gone, and a killed one leaves it to the broker.
public struct AgentPublisher: Sendable {
    public private(set) var agent: ScannerAgent
    public let client: MQTTClient
    private var lastTickTime: Double?
    private var clockStarted = false
    private var firstIdle: Double?
    private var lastBeaconCount = 0

    /// Makes the client (not yet connected); the birth and will are the agent's.
    public init(agent: ScannerAgent, endpoint: MQTTEndpoint, settings: BrokerSettings) throws(MQTTClientError) {
        self.agent = agent
        let options = settings.options(
            for: endpoint, role: "agent", will: agent.will.message, birth: agent.birth.message
        )
        // A lost broker and its return are said on stderr, once per outage (a Pi's journal).
        client = try MQTTClient.publisher(options: options, report: { StandardError.report($0) })
    }

    /// Connects; nil when up, else the first attempt's reason (one clear line, exit status 1).
    public func connect(timeout: Double) -> MQTTConnectionFailure? {
        client.start()
        return client.waitForFirstConnection(timeout: timeout)
    }

    /// Publishes what one ranging tick made due, and telemetry when it is due.
    public mutating func publish(_ snapshot: RangingSnapshot) {
        startClock(at: snapshot.time)
        for message in agent.messages(for: snapshot) { client.publish(message.message) }
        let elapsed = lastTickTime.map { snapshot.time - $0 } ?? 0
        lastTickTime = snapshot.time
        let packets = snapshot.beacons.reduce(0) { $0 + $1.packets }
        lastBeaconCount = snapshot.beacons.count
        sendTelemetry(at: snapshot.time, advertsPerSecond: elapsed > 0 ? Double(packets) / elapsed : 0, beacons: snapshot.beacons.count)
    }

    /// Telemetry when it is due at `time` though the ranging ticks paused for longer than
    /// `tickInterval` (they pause while no beacon is heard: an empty room, whether other devices
    /// advertise in it or not, a lost dongle): the agent still says it is alive, hearing no beacon.
    /// While ticks flow, the next one carries it.
    public mutating func idle(at time: Double, tickInterval: Double) {
        if firstIdle == nil { firstIdle = time }
        let quietSince = lastTickTime ?? firstIdle ?? time
        guard time - quietSince > tickInterval else { return }
        startClock(at: quietSince)
        sendTelemetry(at: time, advertsPerSecond: 0, beacons: 0)
    }

    /// The source lost its controller (`.lost(reason)`: the agent stays `online` on its status
    /// topic, which says the agent and its broker link are up, but hears nothing), or has it back
    /// scanning (`.ok`). A change goes out in telemetry at once, at `time` (a live radio's clock),
    /// so a view shows the deaf scanner now; without a time, in the next telemetry.
    public mutating func radio(_ state: ScannerTelemetry.RadioState, at time: Double?) {
        guard agent.setRadio(state), let time, clockStarted else { return }
        sendTelemetry(at: time, advertsPerSecond: 0, beacons: lastBeaconCount, force: true)
    }

    /// The agent's clock is the scan's (capture time for a replay): uptime and the telemetry
    /// schedule start at its first tick.
    private mutating func startClock(at time: Double) {
        guard !clockStarted else { return }
        clockStarted = true
        let radio = agent.radio
        agent = ScannerAgent(
            scanner: agent.scanner, topics: agent.topics, policy: agent.policy, telemetryInterval: agent.telemetryInterval, startedAt: time
        )
        _ = agent.setRadio(radio)
    }

    private mutating func sendTelemetry(at time: Double, advertsPerSecond: Double, beacons: Int, force: Bool = false) {
        guard force || agent.telemetryDue(at: time) else { return }  // asked at every packet: no lock unless due
        let statistics = client.statistics
        if let telemetry = agent.telemetry(
            at: time, advertsPerSecond: advertsPerSecond, beacons: beacons,
            published: statistics.published, buffered: statistics.buffered, dropped: statistics.dropped, droppedQoS1: statistics.droppedQoS1,
            droppedStale: statistics.droppedStale, force: force
        ) {
            client.publish(telemetry.message)
        }
    }

    /// Publishes `offline`, waits for it (and the QoS 1 messages before it) to be acknowledged, up
    /// to `drainTimeout` s, and disconnects. Returns the client's totals for the closing line.
    public func stop(drainTimeout: Double = 3) -> MQTTClientStatistics {
        client.stop(drainTimeout: drainTimeout)
        return client.statistics
    }

    /// `beacontop: BROKER: N published, N dropped (buffer full), N stale readings dropped (...),
    /// N still buffered`.
    public static func summary(_ statistics: MQTTClientStatistics, broker: String) -> String {
        var text = "\(broker): \(statistics.published) published, \(statistics.dropped) dropped (buffer full)"
        if statistics.droppedStale > 0 {
            text += ", \(statistics.droppedStale) stale readings dropped (they waited for the broker past a view's \(Int(ScannerAgent.readingLifetime)) s)"
        }
        if statistics.buffered > 0 { text += ", \(statistics.buffered) still buffered (the broker was away at the end)" }
        return text
    }
}
