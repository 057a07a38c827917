import Foundation
import TestFixtures
import Testing
@testable import PacketSources

/// A seek back opens the capture again, and the count of records cut by the snap length started
/// over with each reader: from a resume point past the cut record the end line said none, and a
/// seek to the start warned of the same record twice. Each record is counted, and said, once.
@Suite struct ReplaySnapLengthCutTests {
    /// govee-h5100.btsnoop with record 110 (byte 6647, 39 bytes) cut to 27 bytes, its original
    /// length kept: what a snap length does.
    static func cutCapture() throws -> String {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        bytes.replaceSubrange(6651..<6655, with: [0, 0, 0, 27])
        bytes.removeSubrange((6647 + 24 + 27)..<(6647 + 24 + 39))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cut-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a seek back, past the cut record or to the start, still counts it once and says it once", arguments: [-0.001, -1e9])
    func aSeekBackCountsACutRecordOnce(seconds: Double) throws {
        let path = try Self.cutCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cuts = SnapLengthCuts()
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path, cuts: cuts) }
        let control = ReplayControl()
        var engine = ReplayEngine(
            name: path, options: ReplayOptions(speed: .max), control: control, reader: try open(), checkpointEvery: 64, makeReader: open
        )
        var packets = 0
        var warnings = 0
        var ended: String?
        func run(until wanted: Int?) {
            while wanted.map({ packets < $0 }) ?? true, case .emit(let event) = engine.step(wall: 0) {
                switch event {
                case .packet: packets += 1
                case .notice(.framingError): warnings += 1
                case .notice(.ended(_, let reason)): ended = reason
                default: break
                }
            }
        }
        run(until: 300)
        try #require(packets == 300 && warnings == 1)
        control.seek(by: seconds)
        run(until: nil)
        #expect(warnings == 1)
        #expect(ended?.hasSuffix(": 1 records cut by the capture's snap length skipped") == true, "\(ended ?? "no end")")
    }
}
