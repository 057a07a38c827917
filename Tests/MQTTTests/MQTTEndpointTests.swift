import MQTT
import Testing

@Suite("Broker spec strings")
struct MQTTEndpointTests {
    @Test("mqtt:// with everything: user, password, host, port, prefix")
    func fullForm() throws {
        let endpoint = try MQTTEndpoint(parsing: "mqtt://agent:s3cret@broker.local:1884/hall-b/east")
        #expect(endpoint == MQTTEndpoint(host: "broker.local", port: 1884, tls: false, username: "agent", password: "s3cret", prefix: "hall-b/east"))
        #expect(endpoint.topic("espresense/devices/x/y") == "hall-b/east/espresense/devices/x/y")
    }

    @Test("Defaults: port 1883 for mqtt, 8883 for mqtts, no credentials, no prefix")
    func defaults() throws {
        #expect(try MQTTEndpoint(parsing: "mqtt://10.0.0.2") == MQTTEndpoint(host: "10.0.0.2", port: 1883))
        let secure = try MQTTEndpoint(parsing: "mqtts://broker")
        #expect(secure.port == 8883)
        #expect(secure.tls)
        #expect(secure.username == nil && secure.prefix.isEmpty)
        #expect(secure.topic("a/b") == "a/b")
    }

    @Test("IPv6 in brackets, with and without a port; a user without a password")
    func ipv6() throws {
        #expect(try MQTTEndpoint(parsing: "mqtt://[::1]:1999").host == "::1")
        #expect(try MQTTEndpoint(parsing: "mqtt://[::1]:1999").port == 1999)
        let bare = try MQTTEndpoint(parsing: "mqtts://pi@[fe80::1]")
        #expect(bare.host == "fe80::1" && bare.port == 8883 && bare.username == "pi" && bare.password == nil)
    }

    @Test("%XX escapes in user and password; the last '@' ends the credentials")
    func escapes() throws {
        let endpoint = try MQTTEndpoint(parsing: "mqtt://me%40home:p%3Ass@w@host")
        #expect(endpoint.username == "me@home")
        #expect(endpoint.password == "p:ss@w")
        #expect(endpoint.host == "host")
    }

    @Test("The description hides the password and round-trips everything else")
    func descriptionHidesPassword() throws {
        let endpoint = try MQTTEndpoint(parsing: "mqtts://agent:hunter2@broker:9000/venue")
        #expect(endpoint.description == "mqtts://agent:***@broker:9000/venue")
        #expect(!endpoint.description.contains("hunter2"))
        #expect(try MQTTEndpoint(parsing: "mqtt://[::1]").description == "mqtt://[::1]")
    }

    @Test("Errors name the wrong part and never show the password", arguments: [
        ("tcp://host", "scheme"),
        ("mqtt://", "host"),
        ("mqtt://host:0", "port"),
        ("mqtt://host:70000", "port"),
        ("mqtt://host:abc", "port"),
        ("mqtt://:secret@host", "user"),
        ("mqtt://u:bad%zz@host", "password"),
        ("mqtt://host/a/+/b", "prefix"),
        ("mqtt://host/a//b", "prefix"),
        ("mqtt://[::1", "host"),
        ("mqtt://ho st", "host"),
        // A bare '/' in the password: it was taken for the prefix's start and printed whole, or
        // parsed as host `agent`, port 12 (no error at all).
        ("mqtt://agent:pa/secret@host", "prefix"),
        ("mqtt://agent:12/secret@127.0.0.1:1883", "prefix"),
        ("mqtts://agent:secret/x@host/venue", "prefix"),
    ])
    func errors(spec: String, part: String) {
        #expect {
            _ = try MQTTEndpoint(parsing: spec)
        } throws: { error in
            guard let error = error as? MQTTEndpointError else { return false }
            return error.part == part && !error.description.contains("secret") && error.description.contains("broker '")
        }
    }

    /// A prefix of 64 KiB made every topic past MQTT's 65,535 bytes: `monitor mqtt://host/<prefix>`
    /// waited 10 s and said the broker did not acknowledge its subscriptions, and the line that
    /// refused an agent's will echoed the whole prefix. Refused when read, in a short line.
    @Test("A prefix over 1024 bytes is refused, naming its length, in a line that does not echo it whole")
    func longPrefix() throws {
        #expect(try MQTTEndpoint(parsing: "mqtt://host/" + String(repeating: "a", count: 1_024)).prefix.utf8.count == 1_024)
        for length in [1_025, 65_536] {
            #expect {
                _ = try MQTTEndpoint(parsing: "mqtt://host/" + String(repeating: "a", count: length))
            } throws: { error in
                guard let error = error as? MQTTEndpointError else { return false }
                return error.part == "prefix" && error.problem.hasPrefix("is \(length) bytes long; at most 1024")
                    && error.description.utf8.count < 400
            }
        }
    }

    @Test("isEndpoint tells broker specs from other sources")
    func recognises() {
        #expect(MQTTEndpoint.isEndpoint("mqtt://x"))
        #expect(MQTTEndpoint.isEndpoint("mqtts://x"))
        #expect(!MQTTEndpoint.isEndpoint("mqtt.btsnoop"))
        #expect(!MQTTEndpoint.isEndpoint("tcp:host:1"))
    }
}
