import Foundation

/// A program the documentation tests run (groff, man, the shells, scripts/install.sh), with its
/// output in temporary files so neither pipe can fill up and block it, and a time limit so a hang
/// fails the test instead of stalling the suite.
enum ExternalCommand {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The program `name` on the PATH; fails with what to do when `Tests/setup.sh` has not installed it.
    static func find(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(description: "\(name) is not on the PATH: run 'bash Tests/setup.sh' (it installs what the documentation tests need)")
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    limit: Double = 120) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let out = directory.appendingPathComponent("beacontop-cmd-\(UUID().uuidString).out")
        let err = directory.appendingPathComponent("beacontop-cmd-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
