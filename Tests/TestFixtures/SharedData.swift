import Foundation

/// Where the real captures and vectors recorded by other people live: `../shared/data` beside the
/// repository (see `shared/data/README.md`). Tests use them as they are.
public enum SharedData {
    public static let repositoryRoot: URL = {
        // Tests/TestFixtures/SharedData.swift -> repository root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["BEACONTOP_SHARED_DATA"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    public static func capture(_ name: String) -> URL {
        directory.appendingPathComponent("captures").appendingPathComponent(name)
    }

    public static var vectorsFile: URL { directory.appendingPathComponent("vectors.json") }
    public static var heraldFile: URL { directory.appendingPathComponent("herald/pixel2-pixel3-0-340cm.csv") }

    /// Decodes a hex string such as `"0201061aff4c00"`; whitespace is ignored.
    public static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }
}
