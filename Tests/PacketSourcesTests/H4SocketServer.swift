import Foundation
import Glibc

/// The far end of a `unix:` source in a test: a listening unix socket that plays a controller.
final class H4SocketServer {
    let path: String
    private var listener: Int32 = -1
    private(set) var client: Int32 = -1

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("h4-\(UUID().uuidString.prefix(8)).sock").path
        try listen()
    }

    func listen() throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(listener, 4) == 0 else { throw HarnessError(description: "cannot listen on \(path)") }
    }

    /// Takes the connection the source made (it is already queued: connect returns before accept).
    func accept() {
        client = Glibc.accept(listener, nil, nil)
    }

    func write(_ bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let count = array.withUnsafeBytes { Glibc.write(client, $0.baseAddress! + offset, $0.count - offset) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Reads exactly `count` bytes (blocking).
    func read(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress! + offset, count - offset) }
            guard got > 0 else { return Array(bytes.prefix(offset)) }
            offset += got
        }
        return bytes
    }

    func dropClient() {
        if client >= 0 { close(client) }
        client = -1
    }

    /// Stops listening and removes the socket file, so reconnects fail.
    func shutdown() {
        dropClient()
        if listener >= 0 { close(listener) }
        listener = -1
        unlink(path)
    }

    deinit { shutdown() }
}
