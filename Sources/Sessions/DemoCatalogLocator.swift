import Foundation

/// Finds `demo/museum.yaml`: in the current directory, then in the executable's directory and its
/// parents up to the package root (the directory holding `Package.swift`), so both
/// `swift run beacontop demo` and `.build/release/beacontop demo` from anywhere in a checkout work.
public enum DemoCatalogLocator {
    public static let relativePath = "demo/museum.yaml"

    public static func find(currentDirectory: String = FileManager.default.currentDirectoryPath,
                     executable: String = CommandLine.arguments[0]) -> String? {
        let fileManager = FileManager.default
        let here = URL(fileURLWithPath: currentDirectory).appendingPathComponent(relativePath)
        if fileManager.fileExists(atPath: here.path) { return relativePath }
        var directory = URL(fileURLWithPath: executable, relativeTo: URL(fileURLWithPath: currentDirectory))
            .resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relativePath)
            if fileManager.fileExists(atPath: candidate.path) { return candidate.path }
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return nil }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
