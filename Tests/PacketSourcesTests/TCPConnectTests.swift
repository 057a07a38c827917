import Foundation
import Synchronization
import Testing
@testable import PacketSources
#if canImport(Glibc)
import Glibc
#endif

/// `tcp:` connects on a real socket (`LinuxSystemCalls.connectTCP`).
@Suite("TCP connect")
struct TCPConnectTests {
    @Test("a host that drops the connection request fails the connect after 5 s, not after the kernel's two minutes")
    func unansweredConnectTimesOut() async throws {
        // A listener whose accept queue is full drops further SYNs, as a host that is off does.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
            }
        } && listen(listener, 0) == 0
        try #require(listening)
        var queued: [Int32] = []
        defer { queued.forEach { close($0) } }
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
            queued.append(fd)
        }
        let port = UInt16(bigEndian: address.sin_port)
        // On a thread of its own: before, it blocked there for the kernel's SYN retries.
        let outcome = Mutex<Result<Int32, SystemCallError>?>(nil)
        Thread {
            let result = Result { () throws(SystemCallError) in try LinuxSystemCalls().connectTCP(host: "127.0.0.1", port: port) }
            outcome.withLock { $0 = result }
        }.start()
        let deadline = ContinuousClock.now + .seconds(30)
        while outcome.withLock({ $0 }) == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let result = try #require(outcome.withLock { $0 }, "connect still waiting after 30 s")
        #expect(throws: SystemCallError(call: "connect 127.0.0.1:\(port)", errno: ETIMEDOUT)) { try result.get() }
    }
}
