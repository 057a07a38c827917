import Foundation
import PacketSources
import Sessions
import TestFixtures
import Testing

@Suite("Opening a source spec")
struct SourceOpeningTests {
    @Test("files replay with transport controls; live specs give a controller unless they only listen")
    func kinds() throws {
        let file = try SourceOpening(spec: .file(path: SharedData.capture("horizon74.btsnoop").path))
        #expect(file.controller == nil)
        #expect(file.replayControl != nil)
        #expect(file.source.inner is ReplaySource)
        let tcp = try SourceOpening(spec: .tcp(host: "127.0.0.1", port: 9))
        #expect(tcp.controller != nil)
        #expect(tcp.replayControl == nil)
        let monitor = try SourceOpening(spec: .kernel(adapter: 0, channel: .monitor))
        #expect(monitor.controller == nil)
    }

    @Test("a recording that cannot be created fails before anything starts")
    func unwritableRecording() {
        #expect(throws: SourceOpeningError.self) {
            try SourceOpening(spec: .tcp(host: "127.0.0.1", port: 9), record: "/nonexistent-dir/out.btsnoop")
        }
    }

    @Test("a replay of a real capture through the opened source delivers every record")
    func replaysCapture() async throws {
        let opening = try SourceOpening(spec: .file(path: SharedData.capture("horizon74.btsnoop").path), replay: ReplayOptions(speed: .max))
        let events = try await opening.source.collectAll()
        #expect(events.packets.count == 2572)
        #expect(opening.replayControl?.position.packets == 2572)
    }

    /// `sim:CATALOG` is parsed by the spec parser and opened here like any other source: the
    /// simulator walks the catalog's exhibits, its packets decode like a radio's.
    @Test("sim:CATALOG opens the simulator on the catalog's beacons")
    func simulation() async throws {
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let spec = try SourceSpec(parsing: "sim:\(catalog)")
        #expect(spec == .simulation(catalogPath: catalog))
        #expect(!spec.acceptsCommands)
        let opening = try SourceOpening(spec: spec, replay: ReplayOptions(speed: .factor(100)))
        #expect(opening.controller == nil && opening.replayControl == nil)
        #expect(opening.simulatedCatalog?.exhibits.count == 10)
        let inbox = SourceInbox()
        try opening.source.start(into: inbox)
        // The simulator paces itself on the shared task pool: a loaded test run slows it down.
        let events = await inbox.collect(from: opening.source, seconds: 60) { $0.packets.count >= 5 }
        opening.source.stop()
        #expect(events.first == .notice(.connected(source: "sim:\(catalog)")))
        #expect(events.packets.count >= 5)
    }

    @Test("sim: errors name the catalog, the exhibit field, or the speed")
    func simulationErrors() throws {
        let empty = #expect(throws: SourceSpecError.self) { try SourceSpec(parsing: "sim:") }
        #expect(empty?.description == "source 'sim:': CATALOG is missing after sim:")
        let missing = #expect(throws: SourceOpeningError.self) {
            try SourceOpening(spec: .simulation(catalogPath: "/nonexistent/venue.yaml"), replay: ReplayOptions(speed: .factor(1)))
        }
        #expect(missing?.description == "/nonexistent/venue.yaml: No such file or directory")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unplaced = directory.appendingPathComponent("venue.yaml")
        try """
            exhibits:
              - id: "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:1"
                name: Nowhere
            """.write(to: unplaced, atomically: true, encoding: .utf8)
        let noPosition = #expect(throws: SourceOpeningError.self) {
            try SourceOpening(spec: .simulation(catalogPath: unplaced.path), replay: ReplayOptions(speed: .factor(1)))
        }
        #expect(noPosition?.description == "sim:\(unplaced.path): exhibits[0].position: missing: the simulator needs each exhibit's place on the floor")
        #expect(throws: SourceOpeningError.self) {
            try SourceOpening(spec: .simulation(catalogPath: unplaced.path), replay: ReplayOptions(speed: .max))
        }
    }
}
