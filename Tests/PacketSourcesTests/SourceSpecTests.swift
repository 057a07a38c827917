import Glibc
import Testing
@testable import PacketSources

@Suite("Source spec strings")
struct SourceSpecTests {
    @Test("every documented form parses to its source", arguments: [
        ("hci0", SourceSpec.kernel(adapter: 0, channel: .raw)),
        ("hci1:raw", .kernel(adapter: 1, channel: .raw)),
        ("hci0:user", .kernel(adapter: 0, channel: .user)),
        ("hci12:monitor", .kernel(adapter: 12, channel: .monitor)),
        ("serial:/dev/ttyACM0", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: false)),
        ("serial:/dev/ttyUSB1@115200", .serial(path: "/dev/ttyUSB1", baudRate: 115_200, flowControl: false)),
        ("serial:/dev/ttyACM0@1000000,rtscts", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: true)),
        ("serial:/dev/ttyACM0,rtscts", .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: true)),
        ("tcp:127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("tcp:[::1]:9000", .tcp(host: "::1", port: 9000)),
        ("unix:/tmp/h4.sock", .unix(path: "/tmp/h4.sock")),
        ("session.btsnoop", .file(path: "session.btsnoop")),
        ("hci.log", .file(path: "hci.log")),
        ("mqtt://broker.local", .broker(MQTTEndpoint(host: "broker.local"))),
        ("mqtts://agent@10.0.0.5:8884/hall-b", .broker(MQTTEndpoint(host: "10.0.0.5", port: 8884, tls: true, username: "agent", prefix: "hall-b"))),
        ("mqtt://[::1]:1884", .broker(MQTTEndpoint(host: "::1", port: 1884))),
        ("../shared/data/captures/govee-h5105.pcapng", .file(path: "../shared/data/captures/govee-h5105.pcapng")),
    ])
    func parses(text: String, expected: SourceSpec) throws {
        #expect(try SourceSpec(parsing: text) == expected)
        // The printed form parses back to the same source.
        #expect(try SourceSpec(parsing: expected.description) == expected)
    }

    /// URL schemes are case-insensitive (RFC 3986 3.1): `MQTT://broker` was replayed as a file of
    /// that name. The path after a scheme keeps its case; an adapter name is the kernel's, so
    /// `HCI0` stays a file.
    @Test("a scheme in any case names the same source", arguments: [
        ("MQTT://Broker.local", SourceSpec.broker(MQTTEndpoint(host: "Broker.local"))),
        ("Mqtts://agent@10.0.0.5/Hall-B", .broker(MQTTEndpoint(host: "10.0.0.5", tls: true, username: "agent", prefix: "Hall-B"))),
        ("TCP:127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("Unix:/tmp/H4.sock", .unix(path: "/tmp/H4.sock")),
        ("SERIAL:/dev/ttyACM0@115200", .serial(path: "/dev/ttyACM0", baudRate: 115_200, flowControl: false)),
        ("SIM:demo/Museum.yaml", .simulation(catalogPath: "demo/Museum.yaml")),
        ("HCI0", .file(path: "HCI0")),
        ("simple.btsnoop", .file(path: "simple.btsnoop")),
    ])
    func schemesInAnyCase(text: String, expected: SourceSpec) throws {
        #expect(try SourceSpec(parsing: text) == expected)
    }

    @Test("errors name the part that is wrong", arguments: [
        ("hci0:promisc", "channel", "'promisc' is not raw, user or monitor"),
        ("hci99999", "adapter index", "99999 is out of range"),
        ("serial:/dev/ttyACM0@12345", "baud rate", "'12345' is not a standard speed"),
        ("serial:/dev/ttyACM0@fast", "baud rate", "'fast' is not a standard speed"),
        ("serial:/dev/ttyACM0,xonxoff", "option", "'xonxoff' is not rtscts"),
        ("serial:", "device path", "is missing after serial:"),
        ("tcp:localhost", "PORT", "is missing"),
        ("tcp:localhost:0", "PORT", "'0' is not a port number 1-65535"),
        ("tcp:localhost:70000", "PORT", "'70000' is not a port number 1-65535"),
        ("tcp::9000", "HOST", "is empty"),
        ("tcp:[::1", "HOST", "'[:' has an unmatched bracket; write tcp:[IPv6]:PORT"),
        ("tcp:[::1:9000", "HOST", "'[::1' has an unmatched bracket; write tcp:[IPv6]:PORT"),
        ("tcp:::1]:9000", "HOST", "'::1]' has an unmatched bracket; write tcp:[IPv6]:PORT"),
        ("unix:", "PATH", "is missing after unix:"),
        ("mqtt://broker:99999", "port", "'99999' is not a port number 1-65535"),
        ("mqtts://", "host", "is missing"),
        ("mqtt://broker/hall/#", "prefix", "'hall/#' holds a wildcard"),
        ("TCP:localhost:0", "PORT", "'0' is not a port number 1-65535"),
        ("MQTTS://", "host", "is missing"),
    ])
    func errors(text: String, part: String, problem: String) {
        do {
            _ = try SourceSpec(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.part == part)
            #expect(error.problem.hasPrefix(problem), "\(error.problem)")
            #expect(error.description.contains("'\(text)'"))
        }
    }

    @Test("which sources take commands")
    func commands() throws {
        #expect(try SourceSpec(parsing: "hci0").acceptsCommands)
        #expect(try SourceSpec(parsing: "hci0:user").acceptsCommands)
        #expect(try !SourceSpec(parsing: "hci0:monitor").acceptsCommands)
        #expect(try SourceSpec(parsing: "tcp:h:1").acceptsCommands)
        #expect(try !SourceSpec(parsing: "x.pcap").acceptsCommands)
        #expect(try !SourceSpec(parsing: "x.pcap").isLive)
    }

    @Test("a broker's password never shows in the spec's description or its errors")
    func brokerPasswordHidden() throws {
        let spec = try SourceSpec(parsing: "mqtt://agent:s3cret@broker:1884")
        #expect(spec == .broker(MQTTEndpoint(host: "broker", port: 1884, username: "agent", password: "s3cret")))
        #expect(!spec.description.contains("s3cret") && spec.description.contains("agent:***@"))
        #expect(!spec.acceptsCommands && spec.isLive)
        do {
            _ = try SourceSpec(parsing: "mqtt://agent:s3cret@broker:0")
            Issue.record("port 0 parsed")
        } catch {
            #expect(!error.description.contains("s3cret"))
            #expect(error.part == "port")
        }
    }

    @Test("an empty spec says what is expected")
    func empty() {
        #expect(throws: SourceSpecError.self) { try SourceSpec(parsing: "") }
    }
}

@Suite("TCP name resolution errors")
struct TCPResolutionErrorTests {
    @Test("a host that does not resolve says getaddrinfo's reason, not an errno it never set")
    func unresolvableHost() throws {
        // .invalid never resolves (RFC 6761); without DNS the reason is a temporary failure instead.
        let reasons = [EAI_NONAME, EAI_AGAIN, EAI_FAIL].map { String(cString: gai_strerror($0)) }
        do {
            _ = try LinuxSystemCalls().connectTCP(host: "beacontop-test.invalid", port: 9000)
            Issue.record("connected to a .invalid host")
        } catch {
            #expect(reasons.contains { error.description == "getaddrinfo beacontop-test.invalid: \($0)" }, "\(error.description)")
            #expect(!error.description.contains("No route to host"))
        }
    }
}
