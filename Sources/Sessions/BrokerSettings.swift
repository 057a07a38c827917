import Foundation
import MQTT
import PacketSources

/// How a command connects to a venue's broker beyond what the `mqtt://` spec says: the flags
/// `--client-id`, `--keep-alive`, `--cafile`, `--cert`, `--key` (docs/commands.md, docs/venue.md).
public struct BrokerSettings: Sendable, Equatable {
    /// Nil: `beacontop-<role>-<host>-<pid>`, unique per process so two views never take over each
    /// other's session.
    public var clientID: String?
    public var keepAlive: Int
    public var tls: MQTTTLSFiles?
    /// Seconds the first connection may take before the command gives up with one clear line.
    public var connectTimeout: Double

    public init(clientID: String? = nil, keepAlive: Int = 30, tls: MQTTTLSFiles? = nil, connectTimeout: Double = 10) {
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.tls = tls
        self.connectTimeout = connectTimeout
    }

    /// The client's options for `endpoint`, as `role` (`view`, `agent`).
    public func options(
        for endpoint: MQTTEndpoint, role: String, will: MQTTOutgoingMessage? = nil, birth: MQTTOutgoingMessage? = nil,
        cleanSession: Bool = true
    ) -> MQTTClientOptions {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        let id = clientID ?? "beacontop-\(role)-\(host)-\(getpid())"
        return MQTTClientOptions(endpoint: endpoint, clientID: id, keepAlive: keepAlive, cleanSession: cleanSession, tls: tls, will: will, birth: birth)
    }
}
