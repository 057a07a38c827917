import Foundation
import Glibc

/// A real `mosquitto` broker (Debian package, installed by Tests/setup.sh) on free loopback ports,
/// with a generated configuration in a directory of its own: started by the test, stopped when the
/// value goes away. Persistence is on, so `restart()` keeps persistent sessions and their queued
/// QoS 1 messages, as a broker restarted by its service manager does.
public final class LocalMosquittoBroker: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// TLS listener settings: PEM files; `requireCertificate` asks clients for a certificate signed by `caFile`.
    public struct TLSListener {
        public var caFile: String
        public var certificateFile: String
        public var keyFile: String
        public var requireCertificate: Bool

        public init(caFile: String, certificateFile: String, keyFile: String, requireCertificate: Bool = false) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.requireCertificate = requireCertificate
        }
    }

    public static let executable = "/usr/sbin/mosquitto"
    public let directory: URL
    public let port: UInt16
    public let tlsPort: UInt16?
    private var pid: pid_t?

    /// - Parameters:
    ///   - users: user name -> password; when given, anonymous clients are refused.
    public init(users: [String: String] = [:], tls: TLSListener? = nil, extraConfiguration: String = "") throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing: run 'bash Tests/setup.sh' (it installs Debian's mosquitto)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-mqtt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        tlsPort = tls == nil ? nil : try Self.freePort()
        var lines = [
            "per_listener_settings false",
            "persistence true",
            "persistence_location \(directory.path)/",
            "log_dest file \(directory.path)/mosquitto.log",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "max_queued_messages 100000",
            // As root mosquitto would switch to the 'mosquitto' user, who cannot write here.
            geteuid() == 0 ? "user root" : "",
            "listener \(port) 127.0.0.1",
        ]
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords")
            _ = FileManager.default.createFile(atPath: passwords.path, contents: nil)
            for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                try Self.run(["/usr/bin/mosquitto_passwd", "-b", passwords.path, user, password])
            }
            lines += ["allow_anonymous false", "password_file \(passwords.path)"]
        }
        if let tls, let tlsPort {
            lines += [
                "listener \(tlsPort) 127.0.0.1",
                "cafile \(tls.caFile)",
                "certfile \(tls.certificateFile)",
                "keyfile \(tls.keyFile)",
                "require_certificate \(tls.requireCertificate)",
            ]
        }
        if !extraConfiguration.isEmpty { lines.append(extraConfiguration) }
        try (lines.joined(separator: "\n") + "\n").write(to: configuration, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var configuration: URL { directory.appendingPathComponent("mosquitto.conf") }
    public var log: String { (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// `mqtt://127.0.0.1:PORT`, with credentials and a prefix when given.
    public func url(user: String? = nil, password: String? = nil, prefix: String = "", tls: Bool = false) -> String {
        let credentials = user.map { user in password.map { "\(user):\($0)@" } ?? "\(user)@" } ?? ""
        let chosen = tls ? tlsPort ?? port : port
        return "\(tls ? "mqtts" : "mqtt")://\(credentials)127.0.0.1:\(chosen)\(prefix.isEmpty ? "" : "/\(prefix)")"
    }

    public func start() throws {
        guard pid == nil else { return }
        guard let started = CleanSpawn.start([Self.executable, "-c", configuration.path]) else {
            throw Failure(description: "cannot start \(Self.executable): \(String(cString: strerror(errno)))")
        }
        pid = started
        // Wait for the listener: synchronisation with another process, not a speed check.
        for _ in 0..<200 {
            if Self.accepts(port: port) { return }
            guard CleanSpawn.isRunning(started) else {
                pid = nil
                break
            }
            usleep(25_000)
        }
        stop()
        throw Failure(description: "mosquitto did not start on 127.0.0.1:\(port); its log:\n\(log)")
    }

    /// SIGTERM and wait: mosquitto writes its persistence file and exits.
    public func stop() {
        guard let running = pid else { return }
        pid = nil
        kill(running, SIGTERM)
        CleanSpawn.wait(running)
    }

    public func restart() throws {
        stop()
        try start()
    }

    /// The broker's process id while it runs (the venue benchmark reads its CPU time).
    public var processID: pid_t? { pid }

    public var isRunning: Bool { pid.map(CleanSpawn.isRunning) ?? false }

    /// A loopback port nobody listens on now (the kernel's pick for an ephemeral bind).
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    public static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Runs a tool to completion; throws with its output when it fails.
    @discardableResult
    public static func run(_ arguments: [String], in directory: URL? = nil) throws -> String {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: arguments[0])
        tool.arguments = Array(arguments.dropFirst())
        if let directory { tool.currentDirectoryURL = directory }
        let output = Pipe()
        tool.standardOutput = output
        tool.standardError = output
        try tool.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard tool.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed (\(tool.terminationStatus)): \(text)")
        }
        return text
    }
}
