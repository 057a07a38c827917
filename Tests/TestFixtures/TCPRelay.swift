import Foundation
import Glibc
import Synchronization

/// A loopback TCP relay between a client and a server, for network faults a test can cause at
/// will: `cut()` closes every relayed connection at once, as a pulled cable or a crashed agent
/// does (no MQTT DISCONNECT goes out, so the broker publishes the client's last will).
public final class TCPRelay: Sendable {
    public let port: UInt16
    private let target: UInt16
    private let listener: Int32
    private let state = Mutex<(sockets: [Int32], stopped: Bool, refusing: Bool)>(([], false, false))

    public init(to targetPort: UInt16) throws {
        target = targetPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = LocalMosquittoBroker.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw LocalMosquittoBroker.Failure(description: "relay cannot listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// While refusing, new connections are accepted and closed at once, as a peer that is gone
    /// would leave them: a client cannot reconnect before the broker has seen it leave.
    public func refuse(_ refusing: Bool) {
        state.withLock { $0.refusing = refusing }
    }

    /// Closes every relayed connection; new ones are still accepted (unless refusing).
    ///
    /// Only shuts the sockets down (their pumps close them) and does so holding the lock a pump
    /// closes under: a number a pump already closed may be another test's socket by now, and
    /// shutting that down killed it (a live source's unix socket read end of stream in LiveSourceTests).
    public func cut() {
        state.withLock { state in
            for fd in state.sockets { shutdown(fd, Int32(SHUT_RDWR)) }
            state.sockets.removeAll()
        }
    }

    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        // Wakes the accept loop, which closes the listener itself: closed here, the loop's next
        // accept could take a connection from whatever socket got the number next.
        shutdown(listener, Int32(SHUT_RDWR))
        cut()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if state.withLock({ $0.stopped }) {
                if client >= 0 { close(client) }
                close(listener)
                return
            }
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            if state.withLock({ $0.refusing }) {
                close(client)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = LocalMosquittoBroker.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            state.withLock { $0.sockets += [client, server] }
            let thread = Thread { [self] in self.pump(client, server) }
            thread.start()
        }
    }

    /// Copies bytes both ways until either side closes, then closes both (forgotten first, so
    /// `cut` never shuts down a number this closed).
    private func pump(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        loop: while true {
            guard poll(&fds, 2, 1000) >= 0 || errno == EINTR else { break }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let from = entry.fd
                let to = index == 0 ? b : a
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                if count <= 0 { break loop }
                var sent = 0
                while sent < count {
                    let wrote = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, count - sent) }
                    if wrote <= 0 { break loop }
                    sent += wrote
                }
            }
        }
        state.withLock { state in
            state.sockets.removeAll { $0 == a || $0 == b }
            close(a)
            close(b)
        }
    }
}
