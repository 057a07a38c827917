import ArgumentParser
import Foundation
import Ranging
import Simulation

/// `beacontop demo`: the museum with no hardware. A simulated visitor walks from exhibit to exhibit
/// of `demo/museum.yaml`, looping until q; the nearest exhibit's row and panel show what a visitor's
/// phone would.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The museum demo, no Bluetooth needed: a simulated visitor walks past the exhibits of demo/museum.yaml."
    )

    @Option(help: "How much faster than real time the visitor walks (0.25 to 100).") var speed: Double = 1
    @Option(help: "The catalog to tour (default: demo/museum.yaml, found from here or beside the executable).") var exhibits: String?
    @Option(help: "The seed of the walk.") var seed: UInt64 = 1

    func validate() throws {
        guard speed >= 0.25, speed <= 100 else { throw ValidationError("--speed must be between 0.25 and 100, got \(speed)") }
    }

    func run() async throws {
        guard let path = exhibits ?? DemoCatalogLocator.find() else {
            MonitorRunner.fail("""
                demo/museum.yaml not found: looked in \(FileManager.default.currentDirectoryPath)/demo and beside \
                the executable up to the package root. Run from the beacontop checkout, or pass --exhibits FILE.
                """)
        }
        let catalog = MonitorSetup.loadCatalog(path)
        let scenario: Scenario
        do { scenario = try SimulatedVenue.scenario(catalog: catalog, path: path, seed: seed) } catch { MonitorRunner.fail("\(error)") }
        let source = SimulatedPacketSource(name: "sim:\(path)", scenario: scenario, seed: seed, speed: speed)
        try await MonitorSetup.run(source: source, replay: nil, speed: nil, catalog: catalog, catalogPath: path,
                                   configuration: RangingConfiguration(), record: nil)
    }
}

/// Finds `demo/museum.yaml`: in the current directory, then in the executable's directory and its
/// parents up to the package root (the directory holding `Package.swift`), so both
/// `swift run beacontop demo` and `.build/release/beacontop demo` from anywhere in a checkout work.
enum DemoCatalogLocator {
    static let relativePath = "demo/museum.yaml"

    static func find(currentDirectory: String = FileManager.default.currentDirectoryPath,
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
