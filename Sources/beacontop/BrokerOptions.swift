import ArgumentParser
import MQTT
import PacketSources
import Sessions

/// The broker flags of every command that takes `mqtt://` or `mqtts://` (docs/venue.md): who the
/// client is, how often it pings, and its TLS files. User and password go in the spec.
struct BrokerOptions: ParsableArguments {
    @Option(help: "MQTT client id (default beacontop-<role>-<host>-<pid>; give a fixed one for a persistent session).") var clientID: String?
    @Option(help: "MQTT keep-alive in seconds (5 to 65535); the broker publishes a lost client's will after 1.5 times this.") var keepAlive = 30
    @Option(help: "mqtts://: the CA certificate (PEM) to trust instead of the system's.") var cafile: String?
    @Option(help: "mqtts://: a client certificate (PEM), with --key.") var cert: String?
    @Option(help: "mqtts://: the client certificate's key (PEM).") var key: String?
    // A second view beside the one feeding a backend published every event again (docs/venue.md
    // "Visit events and occupancy"): a technician's laptop only looks.
    @Flag(help: "Venue view (mqtt://BROKER): publish nothing (no visit events, no occupancy); the view shows everything as before.") var readOnly = false

    func validate() throws {
        guard (5...65535).contains(keepAlive) else { throw ValidationError("--keep-alive must be 5 to 65535 seconds") }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 65535 { throw ValidationError("--client-id must not be empty") }
        guard (cert == nil) == (key == nil) else { throw ValidationError("--cert needs --key, and --key needs --cert") }
    }

    /// `--read-only` on a source that is no broker: it would be ignored (an agent's `--publish` or
    /// a replayed venue recording publishes regardless, or nothing anyway), so it is refused.
    func readOnlyProblem(source: SourceSpec) -> String? {
        guard readOnly else { return nil }
        if case .broker = source { return nil }
        return "--read-only keeps a venue view from publishing; \(source) is no broker (mqtt://BROKER)"
    }

    var settings: BrokerSettings {
        let tls = cafile == nil && cert == nil ? nil : MQTTTLSFiles(caFile: cafile, certificateFile: cert, keyFile: key)
        return BrokerSettings(clientID: clientID, keepAlive: keepAlive, tls: tls)
    }
}
