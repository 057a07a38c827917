import Foundation
import Sessions
import Testing

/// Where `beacontop demo` finds its catalog, on real files in a temporary directory.
@Suite struct DemoCatalogLocatorTests {
    /// A PREFIX laid out as scripts/install.sh lays it out: PREFIX/bin/beacontop and
    /// PREFIX/share/beacontop/demo/museum.yaml, with the current directory elsewhere.
    @Test func anInstalledBeacontopFindsItsDemoOutsideACheckout() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("demo-locator-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("prefix/bin")
        let demo = root.appendingPathComponent("prefix/share/beacontop/demo")
        let elsewhere = root.appendingPathComponent("home")
        for directory in [bin, demo, elsewhere] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let executable = bin.appendingPathComponent("beacontop")
        try Data().write(to: executable)
        let catalog = demo.appendingPathComponent("museum.yaml")
        try Data("exhibits: []\n".utf8).write(to: catalog)
        let found = DemoCatalogLocator.find(currentDirectory: elsewhere.path, executable: executable.path)
        #expect(found.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == catalog.resolvingSymlinksInPath().path)
    }
}
