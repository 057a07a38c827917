#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one and its errno. Transports map it to words in one place
/// (`KernelSocketError`, `TransportError`).
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    /// The failure in words when it is no errno (getaddrinfo's own codes: `gai_strerror`).
    public var reason: String?

    public init(call: String, errno: Int32, reason: String? = nil) {
        self.call = call
        self.errno = errno
        self.reason = reason
    }

    public var description: String {
        if let reason { return "\(call): \(reason)" }
        return "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The system calls the transports make, behind a protocol so tests can force EAFNOSUPPORT,
/// ENODEV, EPERM, EBUSY or a dead socket without a radio (swift-system's `system_*` habit).
/// Each call either returns its value or throws the errno; nothing else is decided here.
public protocol SystemCalls: Sendable {
    func socket(domain: Int32, type: Int32, protocol: Int32) throws(SystemCallError) -> Int32
    /// Binds `fd` to a socket address given as bytes (e.g. a 6-byte `sockaddr_hci`).
    func bind(_ fd: Int32, address: [UInt8]) throws(SystemCallError)
    func setsockopt(_ fd: Int32, level: Int32, name: Int32, value: [UInt8]) throws(SystemCallError)
    /// Opens a TCP connection (via getaddrinfo, IPv4 or IPv6).
    func connectTCP(host: String, port: UInt16) throws(SystemCallError) -> Int32
    func connectUnix(path: String) throws(SystemCallError) -> Int32
    /// Opens a serial device in raw mode at `baudRate`, with RTS/CTS when `flowControl`.
    func openSerial(path: String, baudRate: Int, flowControl: Bool) throws(SystemCallError) -> Int32
    /// Waits up to `timeoutMilliseconds` for `fd` to be readable; false on timeout.
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool
    /// Reads up to `buffer.count` bytes; 0 means end of stream.
    func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> Int
    func write(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError)
    /// ioctl with an integer argument (HCIDEVUP takes the adapter index).
    func ioctl(_ fd: Int32, request: UInt, value: Int32) throws(SystemCallError)
    func close(_ fd: Int32)
    /// Names in a directory (for `/sys/class/bluetooth`); empty when it does not exist.
    func listDirectory(_ path: String) -> [String]
}
