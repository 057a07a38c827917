import BeaconFormats
import Captures
import Foundation
import HCI
import Ranging
import Testing
import TestFixtures
@testable import Survey

/// The session export: every beacon's reading per tick as CSV, from the real ranging pipeline.
@Suite struct SessionExportTests {
    /// govee-h5100.btsnoop ranged as `replay` ranges it, a tick a second.
    static func snapshots(catalog: ExhibitCatalog? = nil) throws -> [RangingSnapshot] {
        var pipeline = BeaconPipeline(engine: RangingEngine(catalog: catalog))
        var reader = try CaptureReader(path: SharedData.capture("govee-h5100.btsnoop").path)
        var ticks: [RangingSnapshot] = []
        while let packet = try reader.next() { pipeline.feed(packet) { ticks.append($0) } }
        return ticks
    }

    @Test func everyBeaconOfEveryTickIsARow() throws {
        let ticks = try Self.snapshots()
        let rows = ticks.map(SessionExport.rows(for:)).joined()
        let parsed = CSVTable.parse(SessionExport.header + rows)
        #expect(parsed.first == SessionExport.columns)
        let readings = ticks.reduce(0) { $0 + $1.beacons.count }
        #expect(readings > 100, "\(readings) readings")
        #expect(parsed.count == 1 + readings)
        #expect(parsed.allSatisfy { $0.count == SessionExport.columns.count })
        // One known row: the first reading of the first tick, field by field.
        let tick = try #require(ticks.first { !$0.beacons.isEmpty })
        let beacon = tick.beacons[0]
        let row = try #require(parsed.first { $0[0] == SVGDocument.number(tick.time, decimals: 6) && $0[1] == beacon.id })
        let column = Dictionary(uniqueKeysWithValues: zip(SessionExport.columns, row))
        #expect(column["address"] == beacon.addressText)
        #expect(column["rssi_dbm"] == String(beacon.rssi))
        #expect(column["proximity"] == beacon.proximity.rawValue)
        #expect(column["measured_power_source"] == beacon.measuredPower.source.rawValue)
        #expect(column["stale"] == "false")
        #expect(column["distance_m"] == (beacon.accuracy >= 0 ? SVGDocument.number(beacon.accuracy, decimals: 2) : ""))
    }

    @Test func aStaleBeaconsUnknownDistanceIsAnEmptyCell() throws {
        let ticks = try Self.snapshots()
        let stale = try #require(ticks.lazy.flatMap { tick in tick.beacons.map { (tick, $0) } }.first { $0.1.isStale })
        let row = CSVTable.parse(SessionExport.rows(for: RangingSnapshot(time: stale.0.time, beacons: [stale.1], nearest: nil, events: [])))[0]
        let column = Dictionary(uniqueKeysWithValues: zip(SessionExport.columns, row))
        #expect(column["distance_m"] == "")
        #expect(column["stale"] == "true")
    }

    @Test func hostileExhibitNamesStayInTheirCells() throws {
        let name = "=cmd|'/c calc'!A1\r\nRosetta, \"cast\"\u{1B}[2J"
        let catalog = ExhibitCatalog(exhibits: [Exhibit(id: "494E5445-4C4C-495F-524F-434B535F4857:20596:3932", name: name)])
        let ticks = try Self.snapshots(catalog: catalog)
        let text = ticks.map(SessionExport.rows(for:)).joined()
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        let named = CSVTable.parse(text).filter { $0[1].hasSuffix(":20596:3932") }
        #expect(!named.isEmpty)
        #expect(named.allSatisfy { $0.count == SessionExport.columns.count && $0[2] == "'=cmd|'/c calc'!A1\\u{D}\\u{A}Rosetta, \"cast\"\\u{1B}[2J" })
    }

    @Test func anExportWrittenTickByTickReadsBackWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-export-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ticks = try Self.snapshots()
        do {
            let file = try LineFileAppender(path: path, mode: .replace)
            try file.write(SessionExport.header)
            var rows = CSVRows()
            for tick in ticks {
                rows.removeAll()
                SessionExport.append(tick, to: &rows)
                try file.write(rows.string)
            }
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == SessionExport.header + ticks.map(SessionExport.rows(for:)).joined())
    }

    /// A header refused by a device is an error, and what names the device stays: only an empty
    /// regular file the start left is removed. The device is reached through a link of the test's
    /// own, so a broken guard removes the link, not /dev/full.
    @Test func aHeaderThatCannotBeWrittenNeverRemovesADevice() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("export-device-\(getpid())-\(UUID().uuidString.prefix(8)).csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(throws: SurveyFileError.self) {
            try LineFileAppender.starting(path: link, mode: .replace, header: SessionExport.header)
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/dev/full", "the link to the device is kept")
    }

}
