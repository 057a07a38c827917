import Foundation

/// Tools and built products a test needs. A test that lacks one fails with what to do, rather than
/// being skipped: a skipped suite reads as green in `swift test` and hides that nothing ran.
public enum TestPrerequisites {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Throws unless `tmux` runs.
    public static func requireTmux() throws {
        guard TmuxSession.isAvailable else {
            throw Missing(description: "tmux is not on the PATH: install it (apt-get install tmux); the real-terminal tests need it")
        }
    }

    /// Throws unless `path` is an executable file (a product `swift build` makes).
    public static func requireExecutable(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is not built: run 'swift build' first")
        }
    }

    /// The path of `tool` on the PATH; throws with how to install it (`install`) when it is missing.
    public static func requireTool(_ tool: String, install: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = directories.map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing(description: "\(tool) is not on the PATH: \(install)")
        }
        return path
    }
}
