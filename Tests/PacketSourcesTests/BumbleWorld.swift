import Foundation
import TestFixtures
#if canImport(Glibc)
import Glibc
#endif

/// Errors of the end-to-end harness, each saying what to do.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `Tests/bumble/beacon_world.py` (Bumble controllers on one virtual link) for a test and
/// always kills it afterwards. The venv comes from `Tests/setup.sh`; without it the tests fail
/// with that instruction rather than skip.
final class BumbleWorld {
    let process = Process()
    let ports: [UInt16]
    private let output: URL

    static var python: URL { SharedData.repositoryRoot.appendingPathComponent(".build/venv/bin/python") }
    static var script: URL { SharedData.repositoryRoot.appendingPathComponent("Tests/bumble/beacon_world.py") }

    /// `ports` reuses given ports (a world restarted where beacontop reconnects); else free ones.
    /// `options` are more of the script's flags (`--refuse COMMAND`, `--rssi N`, ...).
    init(controllers: Int, advertisers: Bool = true, ports given: [UInt16]? = nil, options: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw HarnessError(description: "no Bumble venv at \(Self.python.path): run 'bash Tests/setup.sh' first")
        }
        ports = try given ?? (0..<controllers).map { _ in try Self.freePort() }
        output = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-world-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = Self.python
        process.arguments = [Self.script.path] + ports.flatMap { ["--port", String($0)] } + (advertisers ? [] : ["--no-advertisers"]) + options
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        do { try waitUntilReady() } catch { stop(); throw error }
    }

    /// Polls the world's output for its READY line (Bumble takes a second or two to import).
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if text.contains("READY") { return }
            guard process.isRunning else { throw HarnessError(description: "the Bumble world exited early:\n\(text)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw HarnessError(description: "the Bumble world did not become ready in 30 s")
    }

    /// Stops every advertiser (SIGUSR1): the beacons leave, the controllers stay. Returns once the
    /// world says so.
    func silenceAdvertisers() throws {
        kill(process.processIdentifier, SIGUSR1)
        let deadline = Date().addingTimeInterval(20)
        while !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("SILENT") {
            guard Date() < deadline, process.isRunning else { throw HarnessError(description: "the Bumble world did not silence its advertisers") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until no connection to `port` is left open on the world's side, accepted or still
    /// in the listen backlog (false after `limit` s). With the client gone, that proves the world
    /// handled everything it sent: asyncio reads a connection's data (and the world logs each
    /// command) before it sees the end of the stream, and only then closes its socket.
    func waitUntilConnectionsEnd(port: UInt16, limit: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while Self.serverConnections(port: port) > 0 {
            guard Date() < deadline, process.isRunning else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    /// IPv4 sockets on local `port` other than the listener, from /proc/net/tcp (hex
    /// `local_address` `7F000001`-style `ADDR:PORT`, state `0A` is LISTEN).
    static func serverConnections(port: UInt16) -> Int {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let local = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] != "0A"
        }.count
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: output)
    }

    deinit { stop() }

    /// A port nothing listens on: bind port 0 and read what the kernel chose.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError(description: "could not find a free port") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// The built `beacontop` executable, run as a subprocess with a watchdog.
enum BeacontopBinary {
    /// Next to the test bundle in the build directory (`.build/<triple>/debug/beacontop`).
    static var url: URL {
        get throws {
            var candidates: [URL] = []
            for bundle in Bundle.allBundles {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("beacontop"))
            }
            candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("beacontop"))
            candidates.append(SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop"))
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw HarnessError(description: "beacontop is not built next to the tests (looked at \(candidates.map(\.path))): run 'swift build' first")
            }
            return found
        }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A started process whose output goes to temporary files.
    final class Running {
        let process = Process()
        let out: URL
        let err: URL

        init(_ arguments: [String]) throws {
            let directory = FileManager.default.temporaryDirectory
            out = directory.appendingPathComponent("beacontop-\(UUID().uuidString).out")
            err = directory.appendingPathComponent("beacontop-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            process.executableURL = try BeacontopBinary.url
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
        }

        var stderrText: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }
        /// What it printed so far (a live scan flushes each batch).
        var stdoutText: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }

        /// Polls until `condition` holds or the process ended; false after `limit` seconds. This is
        /// synchronisation with another process, sized for a loaded machine, not a speed check.
        func waitUntil(limit: Double = 20, _ condition: (Running) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(limit)
            while !condition(self) {
                guard process.isRunning && Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return true
        }

        /// Waits for exit, killing the process after `limit` seconds so a hang fails the test.
        func wait(limit: Double) -> Result {
            let deadline = Date().addingTimeInterval(limit)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let result = Result(
                status: process.terminationStatus,
                stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                stderr: stderrText)
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
            return result
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    static func run(_ arguments: [String], limit: Double) throws -> Result {
        try Running(arguments).wait(limit: limit)
    }
}

/// One NDJSON frame line of `beacontop scan --json`.
struct FrameLine: Decodable, Hashable {
    var t: Double
    var address: String
    var rssi: Int?
    var kind: String
    var id: String
    var measuredPower: Int?

    static func parse(_ text: String) throws -> [FrameLine] {
        try text.split(separator: "\n").map { try JSONDecoder().decode(FrameLine.self, from: Data($0.utf8)) }
    }
}

/// One `scan --json` ranging tick (docs/formats.md "NDJSON tick lines"), the fields these tests check.
struct TickLine: Decodable {
    struct Beacon: Decodable {
        var id: String
        var kind: String
        var address: String
        var rssi: Int
    }

    var t: Double
    var beacons: [Beacon]
    var nearest: String?

    static func parse(_ text: String) throws -> [TickLine] {
        try text.split(separator: "\n").map { try JSONDecoder().decode(TickLine.self, from: Data($0.utf8)) }
    }
}
