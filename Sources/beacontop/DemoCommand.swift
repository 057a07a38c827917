import ArgumentParser
import Foundation
import PacketSources
import Ranging
import Sessions

/// `beacontop demo`: the museum with no hardware. A simulated visitor walks from exhibit to exhibit
/// of `demo/museum.yaml`, looping until q; the nearest exhibit's row and panel show what a visitor's
/// phone would.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The museum demo, no Bluetooth needed: a simulated visitor walks past the exhibits of demo/museum.yaml.",
        discussion: """
            The visitor walks until you quit. Keys: q quits, ? lists every key (docs/screen.md "Keys"); \
            the terminal is restored on every way out.
            """
    )

    @Option(help: "How much faster than real time the visitor walks (0.25 to 100).") var speed: Double = 1
    @Option(help: "The catalog to tour (default: demo/museum.yaml, found from here, beside the executable or where it was installed).") var exhibits: String?
    @Option(help: "The seed of the walk.") var seed: UInt64 = 1

    func validate() throws {
        guard speed >= 0.25, speed <= 100 else { throw ValidationError("--speed must be between 0.25 and 100, got \(speed)") }
    }

    func run() async throws {
        guard let path = exhibits ?? DemoCatalogLocator.find() else {
            MonitorRunner.fail("""
                demo/museum.yaml not found: looked in \(FileManager.default.currentDirectoryPath)/demo, beside \
                the executable up to the package root and in \(DemoCatalogLocator.installedPath) beside it (an \
                installed beacontop). Run from the beacontop checkout, or pass --exhibits FILE.
                """)
        }
        let opening: SourceOpening
        do {
            opening = try SourceOpening(spec: .simulation(catalogPath: path), replay: ReplayOptions(speed: .factor(speed)), seed: seed)
        } catch {
            MonitorRunner.fail("\(error)")
        }
        try await MonitorRunner.run(MonitorRunner.Setup(
            opening: opening, catalog: opening.simulatedCatalog, catalogPath: path, configuration: RangingConfiguration()
        ))
    }
}
