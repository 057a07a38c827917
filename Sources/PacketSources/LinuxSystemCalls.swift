#if canImport(Glibc)
import Glibc
#endif

/// The real calls, through Glibc.
public struct LinuxSystemCalls: SystemCalls {
    public init() {}

    public func socket(domain: Int32, type: Int32, protocol proto: Int32) throws(SystemCallError) -> Int32 {
        let fd = Glibc.socket(domain, type, proto)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno) }
        return fd
    }

    public func bind(_ fd: Int32, address: [UInt8]) throws(SystemCallError) {
        let result = address.withUnsafeBytes { raw in
            Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard result == 0 else { throw SystemCallError(call: "bind", errno: errno) }
    }

    public func setsockopt(_ fd: Int32, level: Int32, name: Int32, value: [UInt8]) throws(SystemCallError) {
        let result = value.withUnsafeBytes { Glibc.setsockopt(fd, level, name, $0.baseAddress, socklen_t($0.count)) }
        guard result == 0 else { throw SystemCallError(call: "setsockopt", errno: errno) }
    }

    public func connectTCP(host: String, port: UInt16) throws(SystemCallError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        // A name that does not resolve said "No route to host (errno 113)"; getaddrinfo has its own codes.
        guard status == 0, let first = list else {
            throw SystemCallError(call: "getaddrinfo \(host)", errno: EHOSTUNREACH, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var lastErrno = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let nonBlocking = Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
            let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype | nonBlocking, info.pointee.ai_protocol)
            if fd >= 0 {
                let started = Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 ? 0 : errno
                let failure = started == EINPROGRESS ? Self.finishConnect(fd) : started
                if failure == 0 {
                    // Blocking again: the reads wait in poll, and a command's write may block.
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                    var one: Int32 = 1
                    _ = Glibc.setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                lastErrno = failure
                Glibc.close(fd)
            } else {
                lastErrno = errno
            }
            entry = info.pointee.ai_next
        }
        throw SystemCallError(call: "connect \(host):\(port)", errno: lastErrno)
    }

    /// How long a TCP connect may take. A host that is off or gone (a Wi-Fi H4 bridge unplugged)
    /// drops the SYN, and a blocking connect waited for the kernel's retries, about two minutes, in
    /// which SIGINT did nothing: `scan tcp:` at start-up, and an exit while reconnecting, waited for
    /// it. 5 s leaves room for two SYN retransmissions (after 1 and 3 s).
    static let connectTimeoutMilliseconds: Int32 = 5_000

    /// Waits for a non-blocking connect to end; returns its errno (0: connected, ETIMEDOUT: no answer).
    /// A signal handler that returns (a resize's SIGWINCH) interrupts the poll: it waits again for
    /// what is left of the 5 s, not for a fresh 5 s, so signals every few seconds cannot keep it
    /// waiting for ever.
    private static func finishConnect(_ fd: Int32) -> Int32 {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let deadline = ContinuousClock.now + .milliseconds(Int(connectTimeoutMilliseconds))
        var ready: Int32
        repeat {
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = max(0, left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
            ready = poll(&descriptor, 1, Int32(min(milliseconds, Int64(connectTimeoutMilliseconds))))
        } while ready < 0 && errno == EINTR
        if ready == 0 { return ETIMEDOUT }
        if ready < 0 { return errno }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    public func connectUnix(path: String) throws(SystemCallError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { throw SystemCallError(call: "connect \(path)", errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SystemCallError(call: "connect \(path)", errno: error)
        }
        return fd
    }

    /// termios raw mode (cfmakeraw): no echo, no line editing, no CR/LF translation, 8N1.
    public func openSerial(path: String, baudRate: Int, flowControl: Bool) throws(SystemCallError) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError(call: "open \(path)", errno: errno) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SystemCallError(call: "tcgetattr \(path)", errno: error)
        }
        cfmakeraw(&settings)
        let speed = SerialSpeed.termiosCode(forBaud: baudRate) ?? speed_t(B115200)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        if flowControl { settings.c_cflag |= tcflag_t(CRTSCTS) } else { settings.c_cflag &= ~tcflag_t(CRTSCTS) }
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw SystemCallError(call: "tcsetattr \(path)", errno: error)
        }
        tcflush(fd, TCIOFLUSH)
        return fd
    }

    public func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let result = poll(&descriptor, 1, timeoutMilliseconds)
        if result < 0 {
            if errno == EINTR { return false }
            throw SystemCallError(call: "poll", errno: errno)
        }
        return result > 0
    }

    public func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            if errno == EINTR || errno == EAGAIN { continue }
            throw SystemCallError(call: "read", errno: errno)
        }
    }

    public func write(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "write", errno: errno)
            }
            offset += count
        }
    }

    public func ioctl(_ fd: Int32, request: UInt, value: Int32) throws(SystemCallError) {
        guard Glibc.ioctl(fd, request, value) == 0 else { throw SystemCallError(call: "ioctl", errno: errno) }
    }

    public func close(_ fd: Int32) { Glibc.close(fd) }

    public func listDirectory(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
