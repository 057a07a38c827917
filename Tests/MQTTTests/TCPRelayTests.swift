import Foundation
import Glibc
import TestFixtures
import Testing

/// The relay the broker tests cut connections with runs in the process every other suite runs in:
/// what it shuts down or closes must still be its own. It shut down the numbers of connections
/// that had already ended, which by then belonged to other tests: a live source's unix socket read
/// end of stream ("unix:/tmp/h4-....sock was closed" in LiveSourceTests.commandTimeout, under load).
@Suite struct TCPRelayTests {
    @Test("a relay stopped after its connections ended leaves the sockets that took their numbers alone")
    func stopTouchesOnlyItsOwnSockets() throws {
        let target = try Self.listener()
        defer { close(target.fd) }
        let relay = try TCPRelay(to: target.port)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LocalMosquittoBroker.loopback(port: relay.port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let relayed = accept(target.fd, nil, nil)
        try #require(relayed >= 0)
        close(client)
        // The target reads end of stream once the relay's pump has closed both its sockets.
        var byte: UInt8 = 0
        #expect(read(relayed, &byte, 1) == 0)
        close(relayed)
        // New sockets take the lowest free numbers, the pump's two among them.
        var pairs: [[Int32]] = []
        defer { for pair in pairs { close(pair[0]); close(pair[1]) } }
        for _ in 0..<8 {
            var pair: [Int32] = [-1, -1]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
            pairs.append(pair)
        }
        relay.stop()
        for pair in pairs {
            var sent: UInt8 = 7
            #expect(send(pair[0], &sent, 1, Int32(MSG_NOSIGNAL)) == 1, "socket \(pair[0]) was shut down by the relay")
            var got: UInt8 = 0
            #expect(recv(pair[1], &got, 1, Int32(MSG_DONTWAIT)) == 1 && got == 7, "socket \(pair[1]) was shut down by the relay")
        }
    }

    /// A loopback listener on a port the kernel picks.
    static func listener() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LocalMosquittoBroker.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(ready && listen(fd, 4) == 0)
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
