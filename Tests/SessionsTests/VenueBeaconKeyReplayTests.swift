import Foundation
import Monitor
import PacketSources
@testable import Sessions
import TestFixtures
import Testing
import Venue

/// mixed.venue.ndjson's agents `pi-a` and `pi-b` write what beacontop's agent writes: each beacon's
/// canonical id and its own kind (`11223344-…:7:9` an `altbeacon`, `01020304050607080910:a1b2…` an
/// `eddystone-uid`), beacons only; its ESPresense nodes write the prefixed dash forms
/// (`altBeacon:11223344-…-7-9`, `eddy:` with the 11-byte namespace) and phones. Replayed, each
/// beacon is one row, one presence and one visit across every scanner, under its canonical key, in
/// the monitor's table and event log and in `replay`'s NDJSON lines alike; the phones (`irk:…`,
/// `name:…`) are tracked as devices under their ids and listed as such (the monitor's `d` list),
/// never as rows. The only malformed beacon ids are the fixture's
/// deliberate bad messages: six mangled prefixed ESPresense ids and three agent readings no agent
/// writes (a phone's id, the Eddystone called an iBeacon, a UUID without its minor).
@Suite("Venue beacon keys through the replay")
struct VenueBeaconKeyReplayTests {
    static let recording = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path
    static let folded = "11223344-5566-7788-99AA-BBCCDDEEFF00:7:9"
    static let eddystone = "01020304050607080910:a1b2c3d4e5f6"
    static let deliberatelyMalformed = 9

    static func isCanonical(_ id: String) -> Bool { VenueBeaconKey.key(id) == id }

    @Test("The monitor: every beacon the event log enters or exits is a row of the table, under its canonical key, heard by agents and ESPresense nodes together; every device it names is in the device list")
    func monitorTableAndLogAgree() throws {
        var reader = try VenueRecordingReader(path: Self.recording)
        var feed = MonitorFeed(status: SourceStatus(name: Self.recording, state: .replaying(speed: 1)))
        feed.startVenue(VenueView(topics: VenueTopics(prefix: reader.prefix)))
        var rows = Set<String>()
        var logged = Set<String>()
        var listed = Set<String>()
        var placedDevices = Set<String>()
        var scannersOfFolded = Set<String>()
        var scannersOfEddystone = Set<String>()
        var second: Double?
        func snapshot(at time: Double) {
            let snapshot = feed.snapshot(at: time)
            rows.formUnion(snapshot.rows.map(\.identity.description))
            listed.formUnion(snapshot.devices.map(\.id))
            placedDevices.formUnion(snapshot.devices.filter { $0.room != nil }.map { "\($0.id) in \($0.room!) by \($0.reading.scanner)" })
            for event in snapshot.events where event.kind == .enter || event.kind == .exit {
                guard let range = event.message.range(of: event.kind == .enter ? " in " : " left ", options: .backwards) else { continue }
                logged.insert(String(event.message[..<range.lowerBound]))
            }
            for beacon in feed.venue?.beacons ?? [] {
                if beacon.id == Self.folded { scannersOfFolded.formUnion(beacon.readings.map(\.scanner)) }
                if beacon.id == Self.eddystone { scannersOfEddystone.formUnion(beacon.readings.map(\.scanner)) }
            }
        }
        while let message = try? reader.next() {
            let now = message.receivedAt.rounded(.down)
            if let last = second, now > last { snapshot(at: now) }
            second = max(second ?? now, now)
            feed.feed(message)
        }
        snapshot(at: (second ?? 0) + 1)

        // The log names devices too (docs/venue.md "Beacon ids"); the table shows beacons only, the
        // device list (`d`) the devices: each one the log names, none a beacon.
        let beacons = logged.filter { VenueBeaconKey.key($0) != nil }
        let devices = logged.subtracting(beacons)
        #expect(beacons.count >= 6, "\(logged.sorted())")
        #expect(beacons.allSatisfy(Self.isCanonical), "\(beacons.sorted())")
        #expect(beacons.isSubset(of: rows), "logged but never a row: \(beacons.subtracting(rows).sorted())")
        #expect(rows.count == 6, "\(rows.sorted())")
        #expect(devices.contains { $0.hasPrefix("irk:") } && devices.contains { $0.hasPrefix("name:") }, "\(devices.sorted())")
        #expect(listed == ["irk:0011aabb", "name:Visitor's phone"], "\(listed.sorted())")
        #expect(devices.isSubset(of: listed), "logged but never listed: \(devices.subtracting(listed).sorted())")
        #expect(placedDevices.contains("irk:0011aabb in café by café") && placedDevices.contains("name:Visitor's phone in hall by hall"), "\(placedDevices.sorted())")
        #expect(scannersOfFolded.isSuperset(of: ["pi-a", "pi-b"]) && scannersOfFolded.count > 2, "\(scannersOfFolded.sorted())")
        // The agents' eddystone-uid readings count: the Eddystone is heard by both, as every beacon is.
        #expect(scannersOfEddystone.isSuperset(of: ["pi-a", "pi-b"]) && scannersOfEddystone.count > 2, "\(scannersOfEddystone.sorted())")
        let refused = feed.venue?.decoder.refused["malformed beacon id"] ?? 0
        #expect(refused == Self.deliberatelyMalformed, "only the fixture's deliberate bad messages")
    }

    @Test("replay --json: every beacon and visit event names its beacon by its canonical key, one per beacon; phones by their ids")
    func replayLinesUseOneKey() throws {
        var output: [UInt8] = []
        let scan = try VenueReplay.run(path: Self.recording, catalog: nil, warn: { _ in }) { lines in
            output += lines.bytes
            lines.removeAll()
        }
        var ids = Set<String>()
        var events = Set<String>()
        for line in output.split(separator: UInt8(ascii: "\n")) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            for beacon in object["beacons"] as? [[String: Any]] ?? [] { ids.insert(try #require(beacon["id"] as? String)) }
            for event in object["events"] as? [[String: Any]] ?? [] { events.insert(try #require(event["beacon"] as? String)) }
        }
        let beacons = ids.filter { VenueBeaconKey.key($0) != nil }
        #expect(beacons.count == 6, "\(ids.sorted())")
        #expect(beacons.allSatisfy(Self.isCanonical), "\(beacons.sorted())")
        #expect(ids.subtracting(beacons).allSatisfy { $0.hasPrefix("irk:") || $0.hasPrefix("name:") }, "\(ids.sorted())")
        #expect(events.isSubset(of: ids) && events.contains(Self.folded), "\(events.sorted())")
        #expect(scan.view.decoder.refused["malformed beacon id", default: 0] == Self.deliberatelyMalformed)
    }
}
