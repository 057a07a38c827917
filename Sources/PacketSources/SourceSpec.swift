/// Where HCI packets come from, named by one string and parsed once (Bumble's transport names
/// are the model: `tcp-client:host:port`). Forms, as docs/sources.md documents:
///
/// - `hci0`, `hci0:raw`, `hci0:user`, `hci0:monitor`: a Linux kernel HCI socket
/// - `serial:/dev/ttyACM0[@1000000][,rtscts]`: H4 over a UART
/// - `tcp:HOST:PORT`, `unix:PATH`: H4 over a socket
/// - `sim:CATALOG`: the simulator, a visitor walking past the catalog's beacons
/// - `mqtt://[user[:password]@]host[:port][/prefix]`, `mqtts://...`: a venue's scanners through
///   an MQTT broker (`MQTTEndpoint`; docs/venue.md)
/// - anything else: a capture file (or advertisement script) to replay
public enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
    case kernel(adapter: Int, channel: KernelHCIChannel)
    case serial(path: String, baudRate: Int, flowControl: Bool)
    case tcp(host: String, port: UInt16)
    case unix(path: String)
    case simulation(catalogPath: String)
    /// Readings from a venue's scanners, through an MQTT broker.
    case broker(MQTTEndpoint)
    case file(path: String)

    /// Default UART speed: what Zephyr's `hci_uart` sample and most dongles use.
    public static let defaultBaudRate = 1_000_000

    public init(parsing text: String) throws(SourceSpecError) {
        guard !text.isEmpty else { throw SourceSpecError(spec: text, part: "", problem: "is empty; give hci0, serial:PATH, tcp:HOST:PORT, unix:PATH, sim:CATALOG, mqtt://BROKER or a capture file") }
        // Schemes in any case (`TCP:`, `MQTT://`), as URL schemes are (RFC 3986 3.1): `MQTT://broker`
        // was replayed as a file of that name. Adapter names are the kernel's, lower case: `HCI0`
        // stays a file.
        if text.hasPrefix("hci"), let spec = try Self.parseKernel(text) {
            self = spec
        } else if let rest = text.afterScheme("serial:") {
            self = try Self.parseSerial(rest, spec: text)
        } else if let rest = text.afterScheme("tcp:") {
            self = try Self.parseTCP(rest, spec: text)
        } else if let path = text.afterScheme("unix:") {
            guard !path.isEmpty else { throw SourceSpecError(spec: text, part: "PATH", problem: "is missing after unix:") }
            self = .unix(path: String(path))
        } else if MQTTEndpoint.isEndpoint(text) {
            do { self = .broker(try MQTTEndpoint(parsing: text)) } catch {
                throw SourceSpecError(spec: error.spec, part: error.part, problem: error.problem)
            }
        } else if let path = text.afterScheme("sim:") {
            guard !path.isEmpty else { throw SourceSpecError(spec: text, part: "CATALOG", problem: "is missing after sim:") }
            self = .simulation(catalogPath: String(path))
        } else {
            self = .file(path: text)
        }
    }

    /// `hciN[:channel]`; nil when the text only starts with "hci" but is no adapter name (a file
    /// called `hci.log` is a replay).
    private static func parseKernel(_ text: String) throws(SourceSpecError) -> SourceSpec? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].dropFirst(3)
        guard !name.isEmpty, name.allSatisfy(\.isASCII), name.allSatisfy(\.isNumber) else { return nil }
        guard let index = Int(name), index <= 0xFFFE else {
            throw SourceSpecError(spec: text, part: "adapter index", problem: "\(name) is out of range")
        }
        var channel = KernelHCIChannel.raw
        if parts.count == 2 {
            guard let parsed = KernelHCIChannel(name: String(parts[1])) else {
                throw SourceSpecError(spec: text, part: "channel", problem: "'\(parts[1])' is not raw, user or monitor")
            }
            channel = parsed
        }
        return .kernel(adapter: index, channel: channel)
    }

    /// `rest` is what follows `serial:` in `text`.
    private static func parseSerial(_ rest: Substring, spec text: String) throws(SourceSpecError) -> SourceSpec {
        var rest = rest
        var flowControl = false
        if let comma = rest.firstIndex(of: ",") {
            let option = rest[rest.index(after: comma)...]
            guard option == "rtscts" else {
                throw SourceSpecError(spec: text, part: "option", problem: "'\(option)' is not rtscts")
            }
            flowControl = true
            rest = rest[..<comma]
        }
        var baud = defaultBaudRate
        if let at = rest.lastIndex(of: "@") {
            let speed = rest[rest.index(after: at)...]
            guard let value = Int(speed), SerialSpeed.termiosCode(forBaud: value) != nil else {
                throw SourceSpecError(spec: text, part: "baud rate", problem: "'\(speed)' is not a standard speed (\(SerialSpeed.supported.map(String.init).joined(separator: ", ")))")
            }
            baud = value
            rest = rest[..<at]
        }
        guard !rest.isEmpty else { throw SourceSpecError(spec: text, part: "device path", problem: "is missing after serial:") }
        return .serial(path: String(rest), baudRate: baud, flowControl: flowControl)
    }

    /// `rest` is what follows `tcp:` in `text`.
    private static func parseTCP(_ rest: Substring, spec text: String) throws(SourceSpecError) -> SourceSpec {
        guard let colon = rest.lastIndex(of: ":") else {
            throw SourceSpecError(spec: text, part: "PORT", problem: "is missing; write tcp:HOST:PORT")
        }
        var host = rest[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw SourceSpecError(spec: text, part: "HOST", problem: "is empty") }
        // `tcp:[::1` split at its last colon left the host `[:`, connected to as `tcp:[[:]:1`.
        guard !host.contains("["), !host.contains("]") else {
            throw SourceSpecError(spec: text, part: "HOST", problem: "'\(host)' has an unmatched bracket; write tcp:[IPv6]:PORT")
        }
        let portText = rest[rest.index(after: colon)...]
        guard let port = UInt16(portText), port > 0 else {
            throw SourceSpecError(spec: text, part: "PORT", problem: "'\(portText)' is not a port number 1-65535")
        }
        return .tcp(host: String(host), port: port)
    }

    /// True for sources that carry a controller beacontop can command (scan, advertise).
    public var acceptsCommands: Bool {
        switch self {
        case .kernel(_, let channel): channel != .monitor
        case .serial, .tcp, .unix: true
        case .simulation, .broker, .file: false
        }
    }

    /// True for sources that run in real time (a radio, the simulator), false for a file.
    public var isLive: Bool { if case .file = self { false } else { true } }

    public var description: String {
        switch self {
        case .kernel(let adapter, let channel): "hci\(adapter):\(channel.name)"
        case .serial(let path, let baud, let flow): "serial:\(path)@\(baud)\(flow ? ",rtscts" : "")"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        case .simulation(let path): "sim:\(path)"
        case .broker(let endpoint): endpoint.description
        case .file(let path): path
        }
    }
}

/// A source spec that could not be parsed: the whole string, the part that is wrong, and why.
public struct SourceSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var spec: String
    public var part: String
    public var problem: String

    public var description: String {
        // A flag's value is no source: `--speed 0` was "source '0': --speed must be ...".
        if part.hasPrefix("--") { return "\(part) \(spec): \(problem)" }
        return part.isEmpty ? "source '\(spec)' \(problem)" : "source '\(spec)': \(part) \(problem)"
    }
}

/// The kernel HCI socket channels (Linux `include/net/bluetooth/hci_sock.h`, HCI_CHANNEL_*).
public enum KernelHCIChannel: UInt16, Sendable, CaseIterable {
    /// Shares the adapter with bluetoothd; beacontop sends its own scan commands.
    case raw = 0
    /// Takes the adapter exclusively; it must be down and not held by bluetoothd.
    case user = 1
    /// Listens to all HCI traffic of every adapter, as btmon does; sends nothing.
    case monitor = 2

    public init?(name: String) {
        switch name {
        case "raw": self = .raw
        case "user": self = .user
        case "monitor": self = .monitor
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .raw: "raw"
        case .user: "user"
        case .monitor: "monitor"
        }
    }
}

extension String {
    /// What follows `scheme` (written in lower case) when the text starts with it in any case, else nil.
    func afterScheme(_ scheme: String) -> Substring? {
        guard utf8.count >= scheme.utf8.count,
              zip(utf8, scheme.utf8).allSatisfy({ $0 == $1 || ($0 >= 0x41 && $0 <= 0x5A && $0 | 0x20 == $1) })
        else { return nil }
        return self[utf8.index(utf8.startIndex, offsetBy: scheme.utf8.count)...]
    }
}
