import Foundation
import Glibc
import Testing
import TestFixtures

/// A child `CleanSpawn` starts (a broker, a tmux server, a Bumble agent) holds none of the test
/// process's descriptors: a socket a test closes is closed for its peer at once, whatever another
/// test started meanwhile.
@Suite("CleanSpawn children inherit no descriptor")
struct CleanSpawnTests {
    @Test("closing a socket the test opened without close-on-exec ends the peer's stream while a spawned child lives")
    func aSpawnedChildHoldsNoSocket() throws {
        var pair: [Int32] = [-1, -1]
        // No SOCK_CLOEXEC, as a test fixture's accept() gives.
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let child = try #require(CleanSpawn.start(["sleep", "20"]))
        defer {
            kill(child, SIGKILL)
            CleanSpawn.wait(child)
        }
        close(pair[0])
        // Inherited, the child's copy would keep the stream open for the 20 s it sleeps.
        var poll = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        try #require(Glibc.poll(&poll, 1, 5_000) == 1, "no end of stream within 5 s: the child holds the socket")
        var byte: UInt8 = 0
        #expect(read(pair[1], &byte, 1) == 0, "end of stream")
    }
}
