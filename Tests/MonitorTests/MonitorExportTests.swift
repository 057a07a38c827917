import Foundation
import Monitor
import PacketSources
import Survey
import TestFixtures
import Testing

/// The session export (`--export`, `x`): every tick's readings as CSV rows, read back as a
/// spreadsheet would.
@Suite struct MonitorExportTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-export-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv").path
    }

    @Test func everyTickIsWrittenOnceAndStopsWhenAsked() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let inbox = SourceInbox(now: { 5000 })
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: inbox)
        try session.startExport(to: path)
        for step in 0..<10 {
            let time = 100 + Double(step) / 2
            inbox.deliver([.packet(MonitorSessionTests.packet(minor: 1, rssi: -62, at: time)),
                           .packet(MonitorSessionTests.packet(minor: 2, rssi: -75, at: time + 0.1))], .dropWhenFull)
            session.drain()
            #expect(session.snapshot(now: 5000).source.exportFile == path)
            // A second snapshot at the same capture time (a paused replay) writes nothing more.
            _ = session.snapshot(now: 5000)
        }
        session.stopExport()
        #expect(session.snapshot(now: 5000).source.exportFile == nil)
        inbox.deliver([.packet(MonitorSessionTests.packet(minor: 1, rssi: -62, at: 106))], .dropWhenFull)
        session.drain()
        _ = session.snapshot(now: 5000)

        let table = CSVTable.parse(try String(contentsOfFile: path, encoding: .utf8))
        #expect(table.first == SessionExport.columns)
        let rows = table.dropFirst()
        #expect(rows.allSatisfy { $0.count == SessionExport.columns.count })
        let times = rows.map { Double($0[0])! }
        #expect(Set(times).count == 10, "one tick per snapshot time, none after the stop: \(Set(times).sorted())")
        #expect(times == times.sorted())
        // Each snapshot ticks at the newest packet's time, so both beacons are in every tick.
        #expect(rows.count == 20)
        let first = try #require(rows.first)
        #expect(first[1] == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:0:1")
        #expect(first[4] == "-62")
    }

    @Test func aFileThatCannotBeCreatedIsAnErrorThatNamesIt() {
        var session = MonitorSession(feed: MonitorFeed(status: SourceStatus(name: "hand")), inbox: SourceInbox())
        #expect(throws: SurveyFileError.self) { try session.startExport(to: "/nonexistent-directory/x.csv") }
        #expect(session.snapshot(now: 0).source.exportFile == nil)
    }
}
