import Monitor
import PacketSources
import Ranging
import Testing
import Venue

/// The event log names a region or a venue's beacon as the table does, by its exhibit's name: it
/// showed the 43-character id (two lines at 40 columns) beside a table saying `Lewis Chessmen`.
@Suite struct EventLogNameTests {
    static let uuid = "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35"

    @Test("an exhibit's own region by the exhibit's name; a named region by its name; an unnamed one by its spec")
    func regionsAreNamedAsTheTableNamesThem() throws {
        let catalog = try ExhibitCatalog(yaml: """
            exhibits:
              - id: "\(Self.uuid):1:3"
                name: Lewis Chessmen
              - id: "\(Self.uuid.lowercased()):1:4"
                name: Dodo Skeleton
            """)
        let derived = try #require(catalog.regions.first)
        #expect(derived.identifier == "\(Self.uuid):1:3", "the region's own identifier stays the id (the NDJSON's)")
        #expect(catalog.logName(for: derived) == "Lewis Chessmen")
        // A hand-typed lower-case UUID names the same exhibit.
        #expect(catalog.logName(for: try #require(BeaconRegion(spec: "\(Self.uuid.lowercased()):1:4"))) == "Dodo Skeleton")
        #expect(catalog.logName(for: BeaconRegion(name: "Ground floor", uuid: derived.uuid, major: 1)) == "Ground floor")
        #expect(catalog.logName(for: BeaconRegion(uuid: derived.uuid, major: 1)) == "\(Self.uuid):1")
        // No exhibit for this beacon: its id.
        #expect(catalog.logName(for: try #require(BeaconRegion(spec: "\(Self.uuid):1:9"))) == "\(Self.uuid):1:9")
    }

    @Test("a name two exhibits (or an exhibit and a region) share keeps the short id after it")
    func sharedNamesKeepTheirIDs() throws {
        let catalog = try ExhibitCatalog(yaml: """
            exhibits:
              - id: "\(Self.uuid):1:1"
                name: Globe
              - id: "\(Self.uuid):1:2"
                name: Globe
              - id: "\(Self.uuid):1:3"
                name: Orrery
            regions:
              - uuid: "\(Self.uuid)"
                major: 1
                minor: 3
                name: Orrery
              - uuid: "\(Self.uuid)"
                major: 1
                minor: 2
            """)
        #expect(catalog.logName(forBeacon: "\(Self.uuid):1:1") == "Globe (8F3A2C61…:1:1)")
        #expect(catalog.logName(for: catalog.regions[1]) == "Globe (8F3A2C61…:1:2)")
        #expect(catalog.logName(for: catalog.regions[0]) == "Orrery", "the region's own name")
        #expect(catalog.logName(forBeacon: "\(Self.uuid):1:3") == "Orrery (8F3A2C61…:1:3)")
    }

    @Test("the museum walk's enter and exit lines name exhibits, as its table and panel do")
    func theMuseumWalkLogsExhibitNames() throws {
        let catalog = try ExhibitCatalog(contentsOf: MonitorFeedTests.demoCatalog)
        var feed = MonitorFeed(catalog: catalog, status: SourceStatus(name: "museum-walk"))
        _ = try MonitorFeedTests.feedCapture(MonitorFeedTests.demoWalk.path, into: &feed)
        let visits = feed.events.filter { $0.kind == .enter || $0.kind == .exit }
        let names = Set(catalog.exhibits.map(\.name))
        #expect(visits.count >= 7)
        #expect(visits.allSatisfy { names.contains($0.message) }, "\(visits.map(\.message))")
    }

    @Test("a venue's enter and exit lines name a catalogued beacon's exhibit, as the venue's rows do")
    func aVenueLogsTheExhibitName() throws {
        let catalog = ExhibitCatalog(exhibits: [Exhibit(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", name: "Guide badge 1")])
        var feed = MonitorFeed(catalog: catalog, status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        for step in 0..<32 {
            let event = MonitorVenueSessionTests.espresense(rssi: -60, at: 1000 + Double(step) * 0.25)
            guard case .brokerMessage(let message) = event else { return }
            feed.feed(message)
            if step % 4 == 3 { _ = feed.snapshot(at: message.receivedAt) }
        }
        _ = feed.finishVenue(at: 1008)
        let lines = feed.events.filter { $0.kind == .enter || $0.kind == .exit }.map(\.message)
        #expect(lines == ["Guide badge 1 in kitchen", "Guide badge 1 left kitchen"], "\(feed.events.map(\.message))")
    }
}
