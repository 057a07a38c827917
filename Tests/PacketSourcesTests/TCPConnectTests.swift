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
        let unanswered = try UnansweredListener()
        let port = unanswered.port
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

    @Test("signals arriving every 300 ms while a connect waits do not restart its 5 s")
    func interruptedConnectKeepsItsDeadline() async throws {
        let unanswered = try UnansweredListener()
        let port = unanswered.port
        // A handler that returns, as SIGWINCH's does: poll fails with EINTR at each signal.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        sigaction(SIGUSR2, &action, nil)
        let outcome = Mutex<Result<Int32, SystemCallError>?>(nil)
        let connecting = Mutex<pthread_t?>(nil)
        Thread {
            // The thread inherits the test runner's mask, which blocks async signals (libdispatch).
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            connecting.withLock { $0 = pthread_self() }
            let result = Result { () throws(SystemCallError) in try LinuxSystemCalls().connectTCP(host: "127.0.0.1", port: port) }
            outcome.withLock { $0 = result }
        }.start()
        // Before, each signal started a fresh 5 s, so the connect could not end while they came. The
        // signals come from a thread of their own: the test's task can wait far longer than 300 ms for
        // a turn while the rest of the suite runs.
        let signalling = Mutex((sent: 0, ranOut: false, done: false))
        Thread {
            var waited = 0
            while connecting.withLock({ $0 }) == nil && waited < 2_000 { usleep(10_000); waited += 1 }
            let stop = ContinuousClock.now + .seconds(20)
            while let thread = connecting.withLock({ $0 }), outcome.withLock({ $0 }) == nil, ContinuousClock.now < stop {
                pthread_kill(thread, SIGUSR2)
                signalling.withLock { $0.sent += 1 }
                usleep(300_000)
            }
            let ranOut = outcome.withLock { $0 } == nil
            signalling.withLock { $0.ranOut = ranOut; $0.done = true }
        }.start()
        let deadline = ContinuousClock.now + .seconds(90)
        while !signalling.withLock({ $0.done }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let (sent, ranOut, done) = signalling.withLock { $0 }
        try #require(done, "the signalling thread did not finish in 90 s")
        #expect(!ranOut, "connect still waiting after 20 s of signals (\(sent) sent)")
        #expect(sent >= 3, "only \(sent) signals were sent while the connect waited: the test proved nothing")
        let finished = ContinuousClock.now + .seconds(30)
        while outcome.withLock({ $0 }) == nil && ContinuousClock.now < finished { try await Task.sleep(for: .milliseconds(50)) }
        let result = try #require(outcome.withLock { $0 }, "connect still waiting 30 s after the signals stopped")
        #expect(throws: SystemCallError(call: "connect 127.0.0.1:\(port)", errno: ETIMEDOUT)) { try result.get() }
    }
}

/// A listener on 127.0.0.1 whose accept queue is full, so it drops further SYNs, as a host that is
/// off does.
private final class UnansweredListener {
    let port: UInt16
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        descriptors.append(listener)
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
        for _ in 0..<4 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
            descriptors.append(fd)
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { descriptors.forEach { close($0) } }
}
