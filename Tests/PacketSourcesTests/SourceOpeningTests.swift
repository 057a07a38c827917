import Captures
import Testing
import TestFixtures
@testable import PacketSources

@Suite("Opening a source spec")
struct SourceOpeningTests {
    @Test("files replay with transport controls; live specs give a controller unless they only listen")
    func kinds() throws {
        let file = try SourceOpening(spec: .file(path: SharedData.capture("horizon74.btsnoop").path))
        #expect(file.controller == nil)
        #expect(file.replayControl != nil)
        #expect(file.packets is ReplaySource)
        let tcp = try SourceOpening(spec: .tcp(host: "127.0.0.1", port: 9))
        #expect(tcp.controller != nil)
        #expect(tcp.replayControl == nil)
        let monitor = try SourceOpening(spec: .kernel(adapter: 0, channel: .monitor))
        #expect(monitor.controller == nil)
    }

    @Test("a recording that cannot be created fails before anything starts")
    func unwritableRecording() {
        #expect(throws: CaptureError.self) {
            try SourceOpening(spec: .tcp(host: "127.0.0.1", port: 9), record: "/nonexistent-dir/out.btsnoop")
        }
    }

    @Test("a replay of a real capture through the opened source delivers every record")
    func replaysCapture() async throws {
        let opening = try SourceOpening(spec: .file(path: SharedData.capture("horizon74.btsnoop").path), replay: ReplayOptions(speed: .max))
        try opening.packets.start()
        var packets = 0
        for await event in opening.packets.events { if case .packet = event { packets += 1 } }
        #expect(packets == 2572)
        #expect(opening.replayControl?.position.packets == 2572)
    }
}
