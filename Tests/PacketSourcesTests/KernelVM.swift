import Foundation
import Synchronization
import TestFixtures

/// One boot of the test VM on one case script (`Tests/vm/cases/NAME.sh`, docs/testing-vm.md): the
/// run's output directory, where the guest wrote what each step printed.
struct VMRun: Sendable {
    let name: String
    let directory: URL

    func text(_ file: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }

    func lines(_ file: String) -> [String] {
        text(file).split(separator: "\n").map(String.init)
    }

    /// The exit status a step wrote to `NAME.status`.
    func status(_ step: String) -> Int32? {
        Int32(text("\(step).status").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A Unix time the guest wrote (`now > FILE`).
    func time(_ file: String) throws -> Double {
        guard let value = Double(text(file).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError(description: "\(name): no time in \(file)")
        }
        return value
    }

    /// Frame lines of `scan --json --frames` in `NAME.out`.
    func frames(_ step: String) throws -> [FrameLine] { try FrameLine.parse(text("\(step).out")) }

    /// The monitor-channel listener's packets (Tests/vm/hci_tool.py listen).
    func listener(_ file: String = "listener.ndjson") throws -> [MonitorRecord] {
        try lines(file).filter { !$0.contains("\"summary\"") }.map { try JSONDecoder().decode(MonitorRecord.self, from: Data($0.utf8)) }
    }
}

/// One packet the monitor-channel listener saw; a Command Complete of a scan or advertising enable
/// command carries `kind` ("scan", "advertising"), `enable` and `status`.
struct MonitorRecord: Decodable, Sendable {
    var t: Double
    var index: Int
    var kind: String?
    var enable: Int?
    var status: Int?
    var report: Bool?
    var complete: String?
}

/// Boots the VM of `Tests/vm/run.sh` on a case, once per case and test process: tests asserting on the
/// same case share its boot (each case is one scenario, and its steps are independent runs). Before the
/// first boot it builds the static beacontop the guest runs (`--static-stdlib`, its own scratch path).
/// Boots are serialized here: two VMs at once on this machine's two cores only slow both.
enum KernelVM {
    private static let runs = Mutex<[String: Result<VMRun, HarnessError>]>([:])
    private static let built = Mutex<Result<Void, HarnessError>?>(nil)
    static let root = SharedData.repositoryRoot

    static func run(_ name: String) throws -> VMRun {
        try runs.withLock { runs in
            if runs[name] == nil {
                do { runs[name] = .success(try boot(name)) } catch {
                    runs[name] = .failure(error as? HarnessError ?? HarnessError(description: "\(error)"))
                }
            }
            return try runs[name]!.get()
        }
    }

    private static func boot(_ name: String) throws -> VMRun {
        try buildOnce()
        let directory = root.appendingPathComponent(".build/vm/runs/\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let result = shell(["bash", "Tests/vm/run.sh", "Tests/vm/cases/\(name).sh", directory.path, "480"],
                           log: root.appendingPathComponent(".build/vm/runs/\(name)-\(getpid()).log"))
        let run = VMRun(name: name, directory: directory)
        guard result.status == 0 else {
            throw HarnessError(description: """
                the VM case \(name) failed (run.sh status \(result.status); 124: time-out, 125: the VM did not start):
                \(result.output)
                guest log:
                \(run.text("guest.log"))
                """)
        }
        return run
    }

    private static func buildOnce() throws {
        try built.withLock { built in
            if built == nil {
                let result = shell(["swift", "build", "--product", "beacontop", "-Xswiftc", "-static-stdlib",
                                    "--scratch-path", ".build/vm/swift"],
                                   log: root.appendingPathComponent(".build/vm/static-build.log"))
                built = result.status == 0 ? .success(()) : .failure(HarnessError(
                    description: "building the VM's static beacontop failed (swift build -Xswiftc -static-stdlib --scratch-path .build/vm/swift):\n\(result.output.suffix(3000))"))
            }
            try built!.get()
        }
    }

    /// Runs a command in the repository, its output to `log`; the status and the output's text.
    private static func shell(_ arguments: [String], log: URL) -> (status: Int32, output: String) {
        try? FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = root
        guard let handle = try? FileHandle(forWritingTo: log) else { return (-1, "cannot write \(log.path)") }
        process.standardOutput = handle
        process.standardError = handle
        do { try process.run() } catch { return (-1, "cannot run \(arguments[0]): \(error)") }
        process.waitUntilExit()
        try? handle.close()
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
