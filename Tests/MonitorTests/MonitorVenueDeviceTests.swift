import Monitor
import PacketSources
import Testing
import Venue

/// A phone in a venue, scripted message by message into the monitor's data side (time as data, no
/// broker, no terminal): ESPresense nodes report it by an id that names no beacon, so presence
/// tracks it as a device. It is in the `d` list with its room, the node placing it, RSSI, distance
/// and age while presence holds it, never a row of the table, and gone from the list when presence
/// forgets it, as a beacon leaves the table. Before, only the event log named it.
@Suite struct MonitorVenueDeviceTests {
    static let beacon = "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1"

    static func message(_ id: String, node: String, rssi: Int, distance: Double, at time: Double) -> BrokerMessage {
        let payload = #"{"id":"\#(id)","rssi@1m":-59,"rssi":\#(rssi),"raw":\#(distance),"distance":\#(distance),"var":0.1,"int":100}"#
        return BrokerMessage(topic: "espresense/devices/\(id)/\(node)", payload: Array(payload.utf8), receivedAt: time)
    }

    /// Feeds `seconds` of readings four times a second (kitchen close, hall far for each id in
    /// `ids`), from `start`, taking a snapshot each second; returns the last snapshot.
    static func play(_ feed: inout MonitorFeed, ids: [String], from start: Double, seconds: Int) -> MonitorSnapshot {
        var snapshot = feed.snapshot(at: start)
        for step in 0..<(seconds * 4) {
            let time = start + Double(step) * 0.25
            for id in ids {
                feed.feed(message(id, node: "kitchen", rssi: -58, distance: 0.9, at: time))
                feed.feed(message(id, node: "hall", rssi: -81, distance: 8.5, at: time + 0.01))
            }
            if step % 4 == 3 { snapshot = feed.snapshot(at: time + 0.1) }
        }
        return snapshot
    }

    @Test("A phone's irk: id is listed with its room, placing node, RSSI, distance and age, never as a row; it leaves the list when presence forgets it")
    func aPhoneIsListedWhilePresenceHoldsIt() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        let phone = "irk:5566ccddeeff"
        let placed = Self.play(&feed, ids: [Self.beacon, phone], from: 1000, seconds: 6)

        #expect(placed.rows.map(\.identity.description) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"], "the table holds the beacon alone")
        let device = try #require(placed.devices.first)
        #expect(placed.devices.count == 1)
        #expect(device.id == phone && device.room == "kitchen", "\(device)")
        #expect(device.reading.scanner == "kitchen" && device.reading.rssi == -58 && device.reading.distance == 0.9, "\(device.reading)")
        #expect(device.reading.age >= 0 && device.reading.age < 1, "\(device.reading.age)")
        #expect(placed.events.contains { $0.kind == .enter && $0.message == "\(phone) in kitchen" }, "\(placed.events.map(\.message))")

        // d opens the list on the monitor's state; the table's selection never lands on the phone.
        var state = MonitorState(snapshot: placed)
        #expect(state.visibleRows.count == 1)
        _ = state.handle(.character("d"))
        #expect(state.screen == .devices && state.viewModel().devices == placed.devices)

        // The phone goes quiet, the beacon stays: its readings expire (4 s), presence lets it go.
        let later = Self.play(&feed, ids: [Self.beacon], from: 1006, seconds: 6)
        #expect(later.devices.isEmpty, "\(later.devices)")
        #expect(later.rows.count == 1)
        #expect(later.events.contains { $0.kind == .exit && $0.message == "\(phone) left kitchen" }, "\(later.events.map(\.message))")
        _ = state.update(later)
        #expect(state.viewModel().devices.isEmpty)
    }

    @Test("A device not yet placed is listed with no room, its best reading shown; the id is kept as it came (the screen sanitises it)")
    func anUnplacedDeviceAndItsIDAsItCame() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        // A bidi override passes the decoder (it refuses C0, DEL and C1 only): the model keeps it.
        let phone = "name:\u{202E}enohp s'rotisiV"
        feed.feed(Self.message(phone, node: "hall", rssi: -81, distance: 8.5, at: 2000))
        feed.feed(Self.message(phone, node: "kitchen", rssi: -58, distance: 0.9, at: 2000.1))
        let first = feed.snapshot(at: 2000.5)
        let device = try #require(first.devices.first)
        #expect(device.id == phone && device.room == nil, "evidence still piling up: \(device)")
        #expect(device.reading.scanner == "kitchen" && abs(device.reading.age - 0.4) < 1e-9, "the best reading of all: \(device.reading)")
        #expect(first.rows.isEmpty)
    }

    @Test("A phone heard by two scanners in two rooms carries what its detail shows: both readings, the runner-up, how long in its room, and the room gaining evidence as it walks over")
    func aDeviceCarriesItsPlacement() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        let phone = "irk:5566ccddeeff"
        // Kitchen close, hall far, from 1000 s; the last snapshot at 1005.85 s.
        let placed = try #require(Self.play(&feed, ids: [phone], from: 1000, seconds: 6).devices.first)
        #expect(placed.room == "kitchen" && placed.placement.room == "kitchen" && placed.placement.scanner == "kitchen")
        #expect(placed.placement.scanners.map(\.scanner) == ["kitchen", "hall"], "strongest first: \(placed.placement.scanners)")
        let hall = try #require(placed.placement.runnerUp)
        #expect(hall.scanner == "hall" && hall.room == "hall" && hall.rssi == -81 && hall.distance == 8.5, "\(hall)")
        #expect(placed.reading.level - hall.level == 23, "the lead presence weighs")
        // In the kitchen since its first reading there, not since presence decided seconds later.
        #expect(abs((placed.inRoomFor ?? -1) - 5.85) < 1e-6, "\(String(describing: placed.inRoomFor))")
        #expect(placed.challenge == nil, "the hall is far behind: nothing gains on the kitchen")

        // The phone walks into the hall: a second later the hall is gaining, the kitchen still holds it.
        for step in 0..<4 {
            let time = 1006 + Double(step) * 0.25
            feed.feed(Self.message(phone, node: "hall", rssi: -58, distance: 0.9, at: time))
            feed.feed(Self.message(phone, node: "kitchen", rssi: -81, distance: 8.5, at: time + 0.01))
        }
        let walking = try #require(feed.snapshot(at: 1006.9).devices.first)
        #expect(walking.room == "kitchen" && walking.placement.runnerUp?.room == "hall")
        let challenge = try #require(walking.challenge, "\(walking)")
        #expect(challenge.room == "hall" && challenge.evidence > 0 && challenge.evidence < challenge.threshold && challenge.threshold == 12, "\(challenge)")
    }

    @Test("A reading of 1e300 dBm is refused and counted: the monitor lists the device from its sane readings (the table's whole-dBm conversion trapped)")
    func anAbsurdRSSIIsRefused() throws {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        let phone = "irk:0011aabb"
        let absurd = #"{"id":"\#(phone)","rssi":1e300,"distance":1e300}"#
        feed.feed(BrokerMessage(topic: "espresense/devices/\(phone)/hall", payload: Array(absurd.utf8), receivedAt: 3000))
        feed.feed(Self.message(phone, node: "kitchen", rssi: -58, distance: 0.9, at: 3000.1))
        let snapshot = feed.snapshot(at: 3000.5)
        #expect(snapshot.source.malformedCount == 1)
        let device = try #require(snapshot.devices.first)
        #expect(snapshot.devices.count == 1 && device.reading.scanner == "kitchen" && device.reading.rssi == -58, "\(snapshot.devices)")
    }

    static func type(_ text: String, into state: inout MonitorState) {
        for character in text { _ = state.handle(.character(character)) }
    }

    @Test("/ on the device list narrows it by id, room or scanner in any case and stays on it; the table's / filter is a text of its own")
    func theDeviceListFiltersItself() {
        var feed = MonitorFeed(status: SourceStatus(name: "mqtt://127.0.0.1:1883"))
        feed.startVenue(VenueView())
        let phones = ["irk:5566ccddeeff", "name:Visitor's phone"]
        var state = MonitorState(snapshot: Self.play(&feed, ids: [Self.beacon] + phones, from: 1000, seconds: 6))
        #expect(state.visibleDevices.map(\.id) == phones)
        _ = state.handle(.character("d"))
        _ = state.handle(.character("/"))
        #expect(state.screen == .devices && state.isEditingFilter, "/ no longer goes back to the table")
        Self.type("IRK", into: &state)
        #expect(state.visibleDevices.map(\.id) == ["irk:5566ccddeeff"] && state.screenFilters[.devices] == "IRK")
        #expect(state.filterText.isEmpty && state.visibleRows.count == 1, "the table's filter is untouched")
        _ = state.handle(.enter)
        #expect(!state.isEditingFilter && state.screen == .devices)
        // Both phones are placed in the kitchen by the kitchen node: the room and scanner match them all.
        _ = state.handle(.character("/"))
        for _ in 0..<3 { _ = state.handle(.backspace) }
        Self.type("KITCHEN ", into: &state)
        #expect(state.visibleDevices.map(\.id) == phones)
        Self.type("x", into: &state)
        #expect(state.visibleDevices.isEmpty)
        _ = state.handle(.escape)
        #expect(state.screenFilters[.devices].isEmpty && state.visibleDevices.map(\.id) == phones, "Esc clears the list's filter")

        // The table's filter (here a region) leaves the list whole, and each keeps its own across d.
        _ = state.handle(.character("/"))
        Self.type("visitor", into: &state)
        _ = state.handle(.enter)
        _ = state.handle(.character("d"))
        _ = state.handle(.character("/"))
        Self.type("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100", into: &state)
        _ = state.handle(.enter)
        #expect(state.screen == .table && state.visibleRows.count == 1)
        _ = state.handle(.character("d"))
        #expect(state.visibleDevices.map(\.id) == ["name:Visitor's phone"] && state.screenFilters[.devices] == "visitor")
        #expect(state.viewModel().devices.map(\.id) == ["name:Visitor's phone"] && state.viewModel().totalDeviceCount == 2)
    }
}
