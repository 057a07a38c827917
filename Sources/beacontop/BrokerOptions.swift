import ArgumentParser
import MQTT
import Sessions

/// The broker flags of every command that takes `mqtt://` or `mqtts://` (docs/venue.md): who the
/// client is, how often it pings, and its TLS files. User and password go in the spec.
struct BrokerOptions: ParsableArguments {
    @Option(help: "MQTT client id (default beacontop-<role>-<host>-<pid>; give a fixed one for a persistent session).") var clientID: String?
    @Option(help: "MQTT keep-alive in seconds (5 to 65535); the broker publishes a lost client's will after 1.5 times this.") var keepAlive = 30
    @Option(help: "mqtts://: the CA certificate (PEM) to trust instead of the system's.") var cafile: String?
    @Option(help: "mqtts://: a client certificate (PEM), with --key.") var cert: String?
    @Option(help: "mqtts://: the client certificate's key (PEM).") var key: String?

    func validate() throws {
        guard (5...65535).contains(keepAlive) else { throw ValidationError("--keep-alive must be 5 to 65535 seconds") }
        if let clientID, clientID.isEmpty || clientID.utf8.count > 65535 { throw ValidationError("--client-id must not be empty") }
        guard (cert == nil) == (key == nil) else { throw ValidationError("--cert needs --key, and --key needs --cert") }
    }

    var settings: BrokerSettings {
        let tls = cafile == nil && cert == nil ? nil : MQTTTLSFiles(caFile: cafile, certificateFile: cert, keyFile: key)
        return BrokerSettings(clientID: clientID, keepAlive: keepAlive, tls: tls)
    }
}
