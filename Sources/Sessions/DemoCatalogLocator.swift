import Foundation

/// Finds `demo/museum.yaml`: in the current directory, then in the executable's directory and its
/// parents up to the package root (the directory holding `Package.swift`), so both
/// `swift run beacontop demo` and `.build/release/beacontop demo` from anywhere in a checkout work;
/// then where `scripts/install.sh` puts it, `PREFIX/share/beacontop/demo` for `PREFIX/bin/beacontop`
/// (an installed `beacontop demo` said "not found" outside a checkout).
public enum DemoCatalogLocator {
    public static let relativePath = "demo/museum.yaml"
    /// Where the installed catalog lies, from the directory holding the executable.
    public static let installedPath = "../share/beacontop/" + relativePath

    public static func find(currentDirectory: String = FileManager.default.currentDirectoryPath,
                     executable: String = CommandLine.arguments[0]) -> String? {
        let fileManager = FileManager.default
        let here = URL(fileURLWithPath: currentDirectory).appendingPathComponent(relativePath)
        if fileManager.fileExists(atPath: here.path) { return relativePath }
        let executableDirectory = URL(fileURLWithPath: executable, relativeTo: URL(fileURLWithPath: currentDirectory))
            .resolvingSymlinksInPath().deletingLastPathComponent()
        var directory = executableDirectory
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relativePath)
            if fileManager.fileExists(atPath: candidate.path) { return candidate.path }
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return nil }
            directory.deleteLastPathComponent()
        }
        let installed = executableDirectory.appendingPathComponent(installedPath).standardizedFileURL
        return fileManager.fileExists(atPath: installed.path) ? installed.path : nil
    }
}
