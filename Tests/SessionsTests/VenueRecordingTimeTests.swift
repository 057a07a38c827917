import Foundation
import HCI
import PacketSources
@testable import Sessions
import Testing

/// A venue recording's receive times outside 1970 to 2200 are refused with the line, as a capture's
/// records are (`TimestampPolicy`). fuzz-venue-recording found a line at 1.8e14 s: `report --json`
/// then listed every hour from 2026 on for each room and never ended; at 1e300 s its hour count
/// trapped converting to Int.
@Suite struct VenueRecordingTimeTests {
    static let reading = #"{"t":TIME,"topic":"espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/hall","payload":"{\"id\":\"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1\",\"rssi\":-61,\"distance\":1.5}"}"#

    static func recording(_ times: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("venue-time-\(UUID().uuidString.prefix(8)).venue.ndjson").path
        let lines = [#"{"beacontopVenueRecording":1,"prefix":""}"#] + times.map { reading.replacingOccurrences(of: "TIME", with: $0) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: ["179541195411768.28", "1e300", "7258118400", "-1", "-1e300"])
    func aTimeOutsideTheRangeIsRefusedWithItsLine(time: String) throws {
        let path = try Self.recording(["1795411724.5", time, "1795411726"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try VenueRecordingReader(path: path)
        #expect(try reader.next()?.receivedAt == 1_795_411_724.5)
        let value = try #require(Double(time))
        #expect(throws: VenueRecordingError(path: path, line: 3, problem: TimestampPolicy.refusal(value))) { _ = try reader.next() }
    }

    @Test func theReplayStopsAtTheLineAndSaysWhy() throws {
        let path = try Self.recording(["1795411724.5", "1795411725", "7300000000", "1795411726"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var warnings: [String] = []
        let scan = try VenueReplay.run(path: path, catalog: nil, warn: { warnings.append($0) }) { $0.removeAll() }
        #expect(warnings == ["\(path): line 4 \(TimestampPolicy.refusal(7_300_000_000)); replayed up to there"])
        let report = scan.view.report
        #expect(report.end == 1_795_411_725)
        #expect(report.rows.allSatisfy { $0.hourly.count == 1 }, "one clock hour, not every hour to 2201")
    }

    @Test func theTimeLimitsAreTheCapturesOnes() throws {
        let path = try Self.recording(["0", "7258118399.999"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try VenueRecordingReader(path: path)
        #expect(try reader.next()?.receivedAt == 0)
        #expect(try reader.next()?.receivedAt == 7_258_118_399.999)
        #expect(try reader.next() == nil)
    }
}
