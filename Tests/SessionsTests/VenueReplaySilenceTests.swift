import Foundation
import Sessions
import Testing
import Venue

/// A replay ticks its view through a silence every second, as the live view did on the wall clock.
@Suite("Venue replay through a silence")
struct VenueReplaySilenceTests {
    /// Seen live on 24 November 2026: a badge in the hall for 8 s then in the café for 6 s, the café's
    /// node then quiet and the next message 8 s later. The live view entered it in the café 3 s
    /// after it left the hall (ticking every second); the replay ticked only at the silence's first
    /// and last second, the readings had expired by the last, and `report` had no café visit.
    @Test("A badge heard in the café for its last 6 s before a silence gets its visit, as live")
    func entryDecidedInASilence() throws {
        let start = 1_795_491_829.0
        var lines = [#"{"beacontopVenueRecording":1,"prefix":""}"#]
        func reading(_ t: Double, _ minor: Int, _ room: String) {
            let id = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-\(minor)"
            let payload = #"{\"id\":\"\#(id)\",\"rssi@1m\":-59,\"rssi\":-60,\"distance\":1.2}"#
            lines.append(#"{"t":\#(start + t),"topic":"espresense/devices/\#(id)/\#(room)","payload":"\#(payload)"}"#)
        }
        for second in 0..<14 {
            reading(Double(second) + 0.05, 5, second < 8 ? "hall" : "cafe")
            if second < 10 { reading(Double(second) + 0.06, 6, "cafe") }
        }
        lines.append(#"{"t":\#(start + 21),"topic":"espresense/rooms/cafe/status","payload":"online"}"#)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("silence-\(getpid()).venue.ndjson").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scan = try VenueReplay.run(path: path, catalog: nil) { _ in }
        let rows = Dictionary(uniqueKeysWithValues: scan.view.report.rows.map { ($0.room, $0.visits) })
        #expect(rows == ["hall": 1, "cafe": 2], "the café visit of the badge that came from the hall")
    }
}
