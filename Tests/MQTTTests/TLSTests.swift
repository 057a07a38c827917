import Foundation
import MQTT
import TestFixtures
import Testing

/// A throwaway certificate authority, a server certificate for 127.0.0.1 and a client
/// certificate, made by openssl in a directory of their own.
struct ThrowawayCertificates {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try make(authority: "ca", subject: "/CN=beacontop test CA")
        try make(authority: "other-ca", subject: "/CN=someone else's CA")
        try sign("server", subject: "/CN=127.0.0.1", by: "ca", extensions: "subjectAltName=IP:127.0.0.1")
        try sign("client", subject: "/CN=agent-1", by: "ca", extensions: "extendedKeyUsage=clientAuth")
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) throws {
        try LocalMosquittoBroker.run(["/usr/bin/openssl"] + arguments, in: directory)
    }

    private func make(authority name: String, subject: String) throws {
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(name).key", "-out", "\(name).crt",
                     "-days", "2", "-subj", subject])
    }

    private func sign(_ name: String, subject: String, by authority: String, extensions: String) throws {
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
        try extensions.write(to: directory.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "\(authority).crt", "-CAkey", "\(authority).key", "-CAcreateserial",
                     "-out", "\(name).crt", "-days", "2", "-extfile", "\(name).ext"])
    }
}

@Suite("MQTT over TLS against a real mosquitto", .serialized)
struct TLSTests {
    @Test("mqtts:// with the CA and a client certificate: connects and round-trips; the wrong CA or no client certificate fails with why")
    func tls() async throws {
        let certificates = try ThrowawayCertificates()
        defer { try? FileManager.default.removeItem(at: certificates.directory) }
        let broker = try LocalMosquittoBroker(tls: .init(
            caFile: certificates.path("ca.crt"), certificateFile: certificates.path("server.crt"),
            keyFile: certificates.path("server.key"), requireCertificate: true
        ))
        let files = MQTTTLSFiles(caFile: certificates.path("ca.crt"), certificateFile: certificates.path("client.crt"), keyFile: certificates.path("client.key"))
        let client = try BrokerTests.client(broker.url(tls: true), id: BrokerTests.unique("tls"), tls: files)
        let events = EventCollector(client)
        client.subscribe("secure/#")
        client.start()
        try await events.waitConnected()
        #expect(client.waitForSubscriptions(timeout: 30), "the broker took the subscriptions before anything is published to them")
        #expect(client.publish(MQTTOutgoingMessage(topic: "secure/hello", text: "over TLS")) == .sent)
        try await events.wait("the message back") { !$0.messages(on: "secure/hello").isEmpty }
        #expect(events.messages(on: "secure/hello").first?.payload == Array("over TLS".utf8))
        client.stop()

        let wrongAuthority = try BrokerTests.client(broker.url(tls: true), id: BrokerTests.unique("tls"), tls: MQTTTLSFiles(
            caFile: certificates.path("other-ca.crt"), certificateFile: certificates.path("client.crt"), keyFile: certificates.path("client.key")
        ))
        wrongAuthority.start()
        let untrusted = try #require(wrongAuthority.waitForFirstConnection(timeout: 10))
        #expect(untrusted.reason.hasPrefix("TLS handshake failed"))
        #expect(untrusted.reason.contains("certificate verify failed"))
        wrongAuthority.stop()

        let anonymous = try BrokerTests.client(broker.url(tls: true), id: BrokerTests.unique("tls"), tls: MQTTTLSFiles(caFile: certificates.path("ca.crt")))
        anonymous.start()
        let refused = try #require(anonymous.waitForFirstConnection(timeout: 10))
        #expect(!refused.reason.isEmpty)
        anonymous.stop()
    }
}
