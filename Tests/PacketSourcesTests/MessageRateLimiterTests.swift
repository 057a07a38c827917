import Foundation
import HCI
import Testing
@testable import PacketSources

@Suite struct MessageRateLimiterTests {
    @Test("a burst passes, the rest are held back and counted, and the next that passes says how many")
    func burstThenOnePerInterval() {
        var limiter = MessageRateLimiter(burst: 3, interval: 1)
        let first = (0..<10).map { limiter.admit(at: 100 + Double($0) * 0.001) }
        #expect(first.prefix(3).allSatisfy { $0 == "" })
        #expect(first.dropFirst(3).allSatisfy { $0 == nil })
        #expect(limiter.suppressed == 7)
        #expect(limiter.admit(at: 101.1) == " (7 similar messages suppressed)")
        #expect(limiter.admit(at: 101.2) == nil)
        #expect(limiter.admit(at: 102.3) == " (1 similar message suppressed)")
        // Quiet for long enough, the whole burst is available again (and no more than that).
        #expect((0..<4).map { limiter.admit(at: 200 + Double($0) * 0.001) } == ["", "", "", nil])
    }

    @Test("a controller sending noise gives a few framing lines, not one per bad byte, and counts the rest")
    func noisyControllerIsRateLimited() async throws {
        let server = try H4SocketServer()
        let spec = SourceSpec.unix(path: server.path)
        let source = LiveSource(spec: spec)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        // 2,000 empty events each followed by a byte that is no H4 indicator: 2,000 resyncs.
        let noise = Array(repeating: [0x04, 0x3E, 0x00, 0xFF] as [UInt8], count: 2_000).flatMap { $0 }
        let marker: [UInt8] = [0x04, 0x0E, 0x01, 0x7A]
        server.write(noise + marker)
        let started = Date()
        let burst = await inbox.collect(from: source) { events in events.contains { Self.isMarker($0, marker) } }
        let elapsed = Date().timeIntervalSince(started)
        let framing = burst.filter { if case .notice(.framingError) = $0 { true } else { false } }
        #expect(framing.count >= 1 && framing.count <= 5 + Int(elapsed.rounded(.up)), "\(framing.count) framing lines in \(elapsed) s")

        // After a quiet second the next one passes and says how many were held back.
        try await Task.sleep(for: .seconds(1.2))
        server.write([0xFF] + marker)
        let later = await inbox.collect(from: source) { events in events.contains { Self.isMarker($0, marker) } }
        source.stop()
        let notes = later.compactMap { event -> String? in
            if case .notice(.framingError(_, let detail)) = event { detail } else { nil }
        }
        let suppressed = notes.compactMap { $0.firstMatch(of: /\((\d+) similar messages suppressed\)/)?.1 }.compactMap { Int($0) }
        #expect(suppressed.count == 1, "\(notes)")
        #expect((suppressed.first ?? 0) + framing.count >= 1_990, "\(notes)")
    }

    static func isMarker(_ event: SourceEvent, _ marker: [UInt8]) -> Bool {
        if case .packet(let packet) = event { packet.h4Bytes == marker } else { false }
    }
}
