import Foundation
import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// A capture whose clock jumps back mid-file (a phone's clock set back while it logged): a paced
/// replay takes the step back as a step of zero and paces on from the packet after it, as
/// tcpreplay 3 did ("Packet has gone back in time!": no sleep, then the deltas from there). It
/// played every packet after the jump at once, until their times passed where the jump started.
@Suite("Replay: a clock that jumps back")
struct ReplayClockJumpTests {
    /// `govee-h5100.btsnoop` (395.7 s) with every record from 300 s on stamped 100 s earlier,
    /// written beside the test's other temporary files; returns its path and the jump's record index.
    static func jumpingCapture() throws -> (path: String, firstAfter: Int) {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        var offset = 16
        var index = 0
        var start: Int64?
        var firstAfter: Int?
        while offset + 24 <= bytes.count {
            let included = bytes[(offset + 4)..<(offset + 8)].reduce(0) { $0 << 8 | Int($1) }
            let stamp = bytes[(offset + 16)..<(offset + 24)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            start = start ?? stamp
            if stamp - start! >= 300_000_000 {
                firstAfter = firstAfter ?? index
                let moved = UInt64(stamp - 100_000_000)
                for byte in 0..<8 { bytes[offset + 16 + byte] = UInt8(truncatingIfNeeded: moved >> (56 - 8 * UInt64(byte))) }
            }
            offset += 24 + included
            index += 1
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clock-jump-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, try #require(firstAfter))
    }

    /// Every packet's capture time and the wall time it was handed out at, the engine stepped on a
    /// clock that jumps to each wait's end (no real time passes).
    static func play(_ path: String) throws -> [(capture: Double, wall: Double)] {
        let open: @Sendable () throws -> any ReplayPacketReader = { try CaptureReplayReader(path: path) }
        var engine = ReplayEngine(name: "jump", options: ReplayOptions(speed: .factor(1)), control: ReplayControl(), reader: try open(), makeReader: open)
        var wall = 0.0
        var played: [(Double, Double)] = []
        while true {
            switch engine.step(wall: wall) {
            case .emit(.packet(let packet)): played.append((packet.timestamp, wall))
            case .emit: continue
            case .wait(let seconds): wall += seconds
            case .end: return played
            }
        }
    }

    @Test("the packets after the jump are paced by their own steps, not played at once")
    func stepBackIsAStepOfZero() throws {
        let (path, firstAfter) = try Self.jumpingCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let played = try Self.play(path)
        #expect(played.count > firstAfter + 100)
        let before = played[firstAfter - 1]
        let jump = played[firstAfter]
        #expect(jump.capture < before.capture - 90, "the edited file does jump back")
        // A step of zero: the first packet after the jump goes out as soon as the one before it.
        #expect(jump.wall - before.wall <= ReplayEngine.batchWindow)
        // From there every packet keeps its distance from the jump's, to the batch window.
        for packet in played[firstAfter...] {
            #expect(abs((packet.wall - jump.wall) - (packet.capture - jump.capture)) <= ReplayEngine.batchWindow + 1e-9,
                    "\(packet.capture - jump.capture) s after the jump, played \(packet.wall - jump.wall) s after it")
        }
        // The whole replay takes the capture's length less the 100 s the clock went back.
        let last = try #require(played.last)
        #expect(abs(last.wall - (before.capture - played[0].capture) - (last.capture - jump.capture)) <= 0.1)
    }
}
