import Ranging
import Testing
@testable import Venue

/// The presence rule on scripted readings: scanners report each beacon once a second, as agents do.
@Suite("Presence across scanners")
struct RoomPresenceTests {
    /// Scanner "a-1" in room A, "b-1" in room B, "c-1" in room C (catalog), all reading alike.
    static let catalog = ExhibitCatalog(
        exhibits: [], rooms: [VenueRoom(id: "A"), VenueRoom(id: "B"), VenueRoom(id: "C")],
        scanners: [VenueScanner(id: "a-1", room: "A"), VenueScanner(id: "b-1", room: "B"), VenueScanner(id: "c-1", room: "C")]
    )

    /// Feeds one reading per scanner per second from `start` for `seconds`, with RSSI from `rssi(scanner, t)`
    /// (nil: not heard); returns the changes.
    static func run(_ presence: inout RoomPresence, from start: Double, seconds: Int, beacon: String = "visitor",
                    rssi: (String, Double) -> Double?) -> [PresenceChange] {
        var changes: [PresenceChange] = []
        for second in 0..<seconds {
            for (index, scanner) in ["a-1", "b-1", "c-1"].enumerated() {
                let t = start + Double(second) + 0.1 * Double(index)
                if let level = rssi(scanner, t) {
                    if let change = presence.ingest(ScannerReading(scanner: scanner, beacon: beacon, time: t, rssi: level, measuredPower: -59)) {
                        changes.append(change)
                    }
                }
            }
            changes += presence.tick(at: start + Double(second) + 0.5)
        }
        return changes
    }

    @Test("A beacon enters the room that hears it best, after evidence, not on its first reading")
    func enters() {
        var presence = RoomPresence(catalog: Self.catalog)
        #expect(presence.ingest(ScannerReading(scanner: "a-1", beacon: "visitor", time: 0, rssi: -65, measuredPower: -59)) == nil)
        let changes = Self.run(&presence, from: 0, seconds: 6) { scanner, _ in ["a-1": -65, "b-1": -80, "c-1": -90][scanner] }
        #expect(changes.count == 1)
        #expect(changes.first?.from == nil && changes.first?.to == "A")
        #expect(changes.first!.time <= 3, "in by \(changes.first!.time) s")
        #expect(changes.first!.firstHeardInTo == 0, "the visit starts at the first reading the entry rests on")
    }

    @Test("One loud reading from another room does not move a beacon; a sustained lead does")
    func sustainedLead() throws {
        var presence = RoomPresence(catalog: Self.catalog)
        _ = Self.run(&presence, from: 0, seconds: 10) { scanner, _ in ["a-1": -65, "b-1": -78][scanner] }
        #expect(presence.room(of: "visitor") == "A")
        let blip = Self.run(&presence, from: 10, seconds: 10) { scanner, t in
            scanner == "a-1" ? -65 : (t >= 12 && t < 13 ? -45 : -78)
        }
        #expect(blip.isEmpty, "a 20 dB blip for one message: \(blip)")
        #expect(presence.room(of: "visitor") == "A")
        let walk = Self.run(&presence, from: 20, seconds: 10) { scanner, _ in ["a-1": -72, "b-1": -64][scanner] }
        let move = try #require(walk.first)
        #expect(walk.count == 1 && move.from == "A" && move.to == "B")
        #expect(move.time > 21 && move.time < 26, "moved at \(move.time)")
    }

    @Test("Two rooms that read the same by turns do not make the beacon flicker")
    func noFlicker() {
        var presence = RoomPresence(catalog: Self.catalog)
        let changes = Self.run(&presence, from: 0, seconds: 120) { scanner, t in
            let wobble = Int(t) % 2 == 0 ? 3.0 : -3.0
            return ["a-1": -70 + wobble, "b-1": -70 - wobble][scanner]
        }
        #expect(changes.count == 1, "\(changes)")
    }

    @Test("Per-scanner offsets: a scanner reading 8 dB low still wins the room it is in, once its offset is known")
    func offsets() {
        // The visitor is nearer a-1 (true -66) than b-1 (true -72), but a-1's receiver reads 8 dB low.
        let reads: (String, Double) -> Double? = { scanner, _ in ["a-1": -74, "b-1": -72][scanner] }
        var naive = RoomPresence(catalog: Self.catalog)
        _ = Self.run(&naive, from: 0, seconds: 10, rssi: reads)
        #expect(naive.room(of: "visitor") == "B", "without the offset the low reader loses")
        var catalog = Self.catalog
        catalog.scanners[0].rssiOffset = 8
        var corrected = RoomPresence(catalog: catalog)
        _ = Self.run(&corrected, from: 0, seconds: 10, rssi: reads)
        #expect(corrected.room(of: "visitor") == "A")
        #expect(corrected.scanners.scanners["a-1"]?.offsetSource == .catalog)
    }

    @Test("An offset learnt from a reference beacon 1 m from the scanner; the reference beacon is nobody's visitor")
    func learntOffset() {
        var catalog = Self.catalog
        catalog.scanners[0].referenceBeacon = "REF-A"
        var presence = RoomPresence(catalog: catalog)
        for second in 0..<31 {
            // Measured power -59 at 1 m; this receiver reads it at -67 give or take.
            let rssi = -67.0 + [-2.0, 0, 1, 0, 2, -1, 0][second % 7]
            _ = presence.ingest(ScannerReading(scanner: "a-1", beacon: "REF-A", time: Double(second), rssi: rssi, measuredPower: -59))
            _ = presence.ingest(ScannerReading(scanner: "b-1", beacon: "REF-A", time: Double(second), rssi: -80, measuredPower: -59))
        }
        #expect(presence.scanners.scanners["a-1"]?.offset == 8)
        #expect(presence.scanners.scanners["a-1"]?.offsetSource == .learnt)
        #expect(presence.scanners.scanners["b-1"]?.offsetSource == ScannerRegistry.OffsetSource.none, "b-1 hears a-1's reference: no offset from it")
        _ = Self.run(&presence, from: 31, seconds: 10) { scanner, _ in ["a-1": -74, "b-1": -72][scanner] }
        #expect(presence.room(of: "visitor") == "A")
        #expect(presence.room(of: "REF-A") == nil)
        #expect(presence.present.keys.sorted() == ["visitor"])
    }

    @Test("A dead scanner keeps nobody: its readings expire and the beacon moves to the room that still hears it, or leaves")
    func deadScanner() {
        var presence = RoomPresence(catalog: Self.catalog)
        _ = Self.run(&presence, from: 0, seconds: 10) { scanner, _ in ["a-1": -62, "b-1": -80][scanner] }
        #expect(presence.room(of: "visitor") == "A")
        // a-1 dies at 10 s: no reading, no telemetry from it any more.
        let after = Self.run(&presence, from: 10, seconds: 30) { scanner, _ in scanner == "b-1" ? -80 : nil }
        #expect(after.map(\.to) == [nil, "B"], "leaves A as soon as A's last reading expires, then enters B on evidence")
        #expect(after[0].time <= 9 + presence.settings.readingLifetime + 1.5)
        #expect(after[1].time <= after[0].time + 5)
        _ = Self.run(&presence, from: 40, seconds: 5) { _, _ in nil }
        #expect(presence.room(of: "visitor") == nil, "nobody hears it: it has left")
    }

    @Test("An 'offline' status drops the scanner's readings at once")
    func offlineStatus() {
        var presence = RoomPresence(catalog: Self.catalog)
        _ = Self.run(&presence, from: 0, seconds: 10) { scanner, _ in ["a-1": -62][scanner] }
        #expect(presence.room(of: "visitor") == "A")
        let changes = presence.ingest(VenueInput.scannerStatus(scanner: "a-1", online: false, time: 10.2))
        // Decided at the status; the visit ends at a-1's last reading (9 s).
        #expect(changes == [PresenceChange(beacon: "visitor", from: "A", to: nil, time: 10.2, lastHeardInFrom: 9)])
        #expect(!presence.scanners.isAlive("a-1", at: 10.3))
    }

    @Test("A scanner not in the catalog covers a room of its own name (an ESPresense node)")
    func uncataloguedScanner() {
        var presence = RoomPresence()
        for second in 0..<5 {
            _ = presence.ingest(ScannerReading(scanner: "kitchen", beacon: "b", time: Double(second), rssi: -60, measuredPower: -59, format: .espresense))
        }
        #expect(presence.room(of: "b") == "kitchen")
        #expect(presence.levels(of: "b").map(\.scanner) == ["kitchen"])
    }
}
