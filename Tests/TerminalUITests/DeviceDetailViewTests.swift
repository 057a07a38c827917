import Monitor
import Testing
@testable import TerminalUI

/// Enter on the `d` list: which scanners hear a phone, its room and since when, the runner-up room
/// and presence's evidence, as a venue beacon's detail pane says it for a beacon. Whole screens as
/// text plus roles at 80x24 and 40x12, a device that leaves while shown, hostile ids and names.
@Suite struct DeviceDetailViewTests {
    static func cell(_ scanner: String, _ room: String, rssi: Double, distance: Double?, age: Double) -> VenuePlacement.ScannerCell {
        VenuePlacement.ScannerCell(scanner: scanner, room: room, rssi: rssi, level: rssi + 59, distance: distance, age: age)
    }

    /// A phone in the café by the café's node, the hall's north door hearing it 7 dB weaker, the
    /// shop's node weaker still; the hall piling up evidence to take it.
    static let phone: VenueDevice = {
        let cafe = cell("café", "café", rssi: -55, distance: 0.82, age: 0.4)
        let hall = cell("esp32-hall-north-door", "hall", rssi: -62, distance: 2.25, age: 1.5)
        let shop = cell("shop", "shop", rssi: -80, distance: 9.1, age: 3.2)
        return VenueDevice(
            id: "irk:0011aabb", room: "café", reading: cafe,
            placement: VenuePlacement(room: "café", scanner: "café", runnerUp: hall, scanners: [cafe, hall, shop]),
            inRoomFor: 72.4, challenge: VenueDevice.Challenge(room: "hall", evidence: 4.25, threshold: 12))
    }()

    static let visitor = DeviceListViewTests.device("name:Visitor's phone", room: "hall", scanner: "esp32-hall-north-door", rssi: -62, distance: 2.25, age: 1.5)
    static let unplaced = DeviceListViewTests.device("name:zz unplaced", room: nil, scanner: "shop", rssi: -84.5, distance: nil, age: 3.2)

    static func state(_ devices: [VenueDevice], columns: Int, lines: Int) -> MonitorState {
        var state = DeviceListViewTests.state(devices, columns: columns, lines: lines)
        _ = state.handle(.character("d"))
        return state
    }

    static func roles(_ state: MonitorState) -> [Substring] {
        ScreenScenarioTests.roles(DeviceListViewTests.screen(state)).split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("↓/↑ move the list's selection; Enter shows every scanner hearing the phone, its room and for how long, the runner-up and presence's evidence; Esc, Backspace and Enter return with it selected")
    func theDetailAtEightyColumns() {
        var state = Self.state([Self.phone, Self.visitor, Self.unplaced], columns: 80, lines: 24)
        #expect(Self.roles(state)[2] == Substring(String(repeating: "S", count: 80)), "the first device is selected, as the table's first row")
        _ = state.handle(.down)
        #expect(Self.roles(state)[2] == "" && Self.roles(state)[3] == Substring(String(repeating: "S", count: 80)))
        #expect(state.handle(.up) == (.redraw, nil))
        #expect(state.handle(.enter) == (.redraw, nil))
        #expect(state.screen == .deviceDetail)
        let screen = DeviceListViewTests.screen(state)
        #expect(screen.text == """
             beacontop · device                                                   3 devices
             irk:0011aabb
             In café for 01:12, placed by café
             Runner-up hall, 7.0 dB weaker (esp32-hall-north-door)
             Evidence for hall: 4.3 of 12 dB·s to move it there
             SCANNER            ROOM              RSSI  LEVEL dB  DIST m    AGE
            >café               café               -55       4.0    0.82   0.4s
             esp32-…-north-door hall               -62      -3.0    2.25   1.5s
             shop               shop               -80     -21.0    9.10   3.2s














             mqtt://broker scanning · 0 adv/s                                        ? help
            """)
        let roles = Self.roles(state)
        #expect(roles[1] == Substring(String(repeating: "C", count: 80)), "the id is the heading")
        #expect(roles[2...4].allSatisfy { $0.isEmpty })
        #expect(roles[6] == "NNNNN               NNNN               NNN       NNN    NNNN   NNNN", "the placing scanner is marked")
        #expect(roles[7] == "" && roles[8] == "")
        // Each way back returns to the list with the phone still selected.
        for key in [Key.escape, .backspace, .enter] {
            #expect(state.handle(key) == (.redraw, nil))
            #expect(state.screen == .devices && Self.roles(state)[2] == Substring(String(repeating: "S", count: 80)), "\(key)")
            _ = state.handle(.enter)
            #expect(state.screen == .deviceDetail)
        }
        // d from the detail leaves the device screens, as from the list.
        _ = state.handle(.enter)
        _ = state.handle(.character("d"))
        #expect(state.screen == .table)
    }

    @Test("/ on a device's detail edits the device list's filter, on the list (it went to the table and filtered that); the detail's title shows that filter")
    func slashOnTheDetailFiltersTheList() {
        var state = Self.state([Self.phone, Self.visitor, Self.unplaced], columns: 80, lines: 10)
        _ = state.handle(.enter)
        #expect(state.screen == .deviceDetail)
        _ = state.handle(.character("/"))
        for character in "irk" { _ = state.handle(.character(character)) }
        let typing = NarrowScreenTests.lines(DeviceListViewTests.screen(state))
        #expect(state.screen == .devices && state.screenFilters[.devices] == "irk" && state.filterText.isEmpty)
        #expect(typing[0].hasSuffix(" 1 of 3 devices") && typing[2].hasPrefix(" irk:0011aabb ") && typing[3] == "", "\(typing)")
        #expect(typing[9] == " / devices (id, room, scanner): irk_", "\(typing)")
        // The detail of a device on the narrowed list says which filter narrows it, as the list does.
        _ = state.handle(.enter)
        _ = state.handle(.enter)
        let detail = NarrowScreenTests.lines(DeviceListViewTests.screen(state))
        #expect(state.screen == .deviceDetail && detail[0].hasSuffix(" 1 of 3 devices · /irk") && detail[1] == " irk:0011aabb", "\(detail)")
    }

    @Test("40x12: the detail scrolls under the id, keeping the part read across a resize; where it fits, ↓ steps to the next device's detail")
    func theDetailAtFortyColumns() throws {
        let more = (1...4).map { Self.cell("node-\($0)", "room-\($0)", rssi: -70 - Double($0), distance: 4, age: 1) }
        var phone = Self.phone
        phone.placement.scanners += more
        var state = Self.state([phone, Self.visitor, Self.unplaced], columns: 40, lines: 12)
        _ = state.handle(.enter)
        let top = ScrolledScreenTests.frame(&state)
        #expect(top == [
            " beacontop · device           3 devices",
            " irk:0011aabb",
            " In café for 01:12, placed by café",
            " Runner-up hall, 7.0 dB weaker",
            " (esp32-hall-north-door)",
            " Evidence for hall: 4.3 of 12 dB·s to",
            " move it there",
            " SCANNER    ROOM         RSSI  LEVEL dB",
            ">café       café          -55       4.0",
            " esp…h-door hall          -62      -3.0",
            " ↓ 5 more lines (j/k, PgDn)",
            " mqtt://broker scanning · 0 adv/s",
        ], "\(top)")
        for _ in 0..<3 { _ = state.handle(.character("j")) }
        let scrolled = ScrolledScreenTests.frame(&state)
        #expect(scrolled[1] == " irk:0011aabb", "the id stays")
        #expect(scrolled[2] == " Evidence for hall: 4.3 of 12 dB·s to" && scrolled[9] == " node-2     room-2        -72     -13.0", "\(scrolled)")
        // Wider, the evidence is one line and still the first read.
        ScrolledScreenTests.resize(&state, columns: 60, lines: 12)
        let wide = ScrolledScreenTests.frame(&state)
        #expect(wide[2] == " Evidence for hall: 4.3 of 12 dB·s to move it there", "\(wide)")
        _ = state.handle(.end)
        #expect(ScrolledScreenTests.frame(&state)[10].hasPrefix(" node-4 "))
        // The visitor's detail fits: ↓ goes to the next device, not down a line.
        _ = state.handle(.escape)
        _ = state.handle(.down)
        _ = state.handle(.enter)
        #expect(ScrolledScreenTests.frame(&state)[1] == " name:Visitor's phone")
        _ = state.handle(.down)
        let next = ScrolledScreenTests.frame(&state)
        #expect(next[1] == " name:zz unplaced" && next[2] == " In no room yet (shop hears it best)", "\(next)")
        #expect(next[3] == " Runner-up: none (no other room hears it)" && next[4] == " No room has evidence yet", "\(next)")
        #expect(Self.roles(state)[2].count > 30 && Self.roles(state)[2].allSatisfy { $0 == "s" }, "no room yet: stale")
    }

    @Test("a device presence forgets while shown: the detail says so under its id, never shows another; it comes back when heard; Esc selects the one in its place")
    func aDeviceThatLeavesWhileShown() throws {
        var state = Self.state([Self.phone, Self.visitor, Self.unplaced], columns: 40, lines: 12)
        _ = state.handle(.down)
        _ = state.handle(.enter)
        var snapshot = state.snapshot
        snapshot.devices = [Self.phone, Self.unplaced]
        #expect(state.update(snapshot) == .redraw)
        let gone = NarrowScreenTests.lines(DeviceListViewTests.screen(state))
        // Its last room and readings stay, dimmed under the note (it said only "No longer tracked").
        #expect(Array(gone[0...9]) == [
            " beacontop · device           2 devices",
            " name:Visitor's phone",
            " No longer tracked: no live scanner has",
            " heard it within a reading's lifetime,",
            " so presence let it go. Last known:",
            " In hall, placed by",
            " esp32-hall-north-door",
            " Runner-up: none (no other room hears",
            " it)",
            " No room is gaining on hall",
        ], "\(gone)")
        let roles = Self.roles(state)
        #expect(roles[2...4].allSatisfy { $0.allSatisfy { $0 == "m" } } && roles[5...9].allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == "s" } },
                "the note muted, what was last known stale: \(roles)")
        #expect(!gone.joined().contains("irk:") && !gone.joined().contains("unplaced"))
        _ = ScrolledScreenTests.frame(&state)
        for _ in 0..<4 { _ = state.handle(.character("j")) }
        let readings = ScrolledScreenTests.frame(&state)
        let reading = try #require(readings.firstIndex { $0.hasPrefix(">esp") && $0.contains("-62") }, "\(readings)")
        #expect(Self.roles(state)[reading].allSatisfy { $0 == "s" || $0 == " " }, "the last reading dimmed: \(Self.roles(state))")
        for _ in 0..<4 { _ = state.handle(.character("k")) }
        snapshot.devices = [Self.phone, Self.visitor, Self.unplaced]
        _ = state.update(snapshot)
        #expect(NarrowScreenTests.lines(DeviceListViewTests.screen(state))[2] == " In hall, placed by")
        snapshot.devices = [Self.phone, Self.unplaced]
        _ = state.update(snapshot)
        _ = state.handle(.escape)
        let list = NarrowScreenTests.lines(DeviceListViewTests.screen(state))
        #expect(list[3].hasPrefix(" name…nplaced ") && Self.roles(state)[3] == Substring(String(repeating: "S", count: 40)),
                "the device that took its place is selected, not the top one")
    }

    @Test("hostile ids and scanner names (escapes, OSC, 8-bit CSI, bidi, 256 bytes) are drawn harmless: the id on two lines at most, its head and tail kept")
    func hostileIDsAndNames() {
        let overlong = "name:" + String(repeating: "A", count: 152) + String(repeating: "é", count: 48) + "END"
        let escapes = "irk:\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\u{202E}x"
        let scanners = [Self.cell("node\u{1B}[31m\u{202E}evil\u{2066}", "hall\u{9B}2J", rssi: -60, distance: 1, age: 0.5),
                        Self.cell(String(repeating: "n", count: 200), "room\u{202E}", rssi: -70, distance: 3, age: 1)]
        let devices = [escapes, overlong].map { id in
            VenueDevice(id: id, room: "hall\u{9B}2J", reading: scanners[0],
                        placement: VenuePlacement(room: "hall\u{9B}2J", scanner: scanners[0].scanner, runnerUp: scanners[1], scanners: scanners),
                        inRoomFor: 3, challenge: VenueDevice.Challenge(room: "room\u{202E}", evidence: 1, threshold: 12))
        }
        var state = Self.state(devices, columns: 80, lines: 24)
        _ = state.handle(.enter)
        let first = NarrowScreenTests.lines(DeviceListViewTests.screen(state))
        #expect(first[1] == " irk:�[2J�]0;pwned��31m�x")
        #expect(first[2] == " In hall�2J for 00:03, placed by node�[31m�evil�")
        // A name longer than the runner-up's lines is wrapped and cut; in the table, cut in the middle.
        #expect(first[5].hasSuffix("nnn…") && first[6] == " Evidence for room�: 1.0 of 12 dB·s to move it there")
        #expect(first[8] == ">node�[31m�evil�    hall�2J            -60      -1.0    1.00   0.5s")
        #expect(first[9] == " nnnnnn…nnnnnnnnnnn room�              -70     -11.0    3.00   1.0s")
        _ = state.handle(.down)
        for (columns, lines) in [(80, 24), (40, 12)] {
            state.screenSize = (columns, lines)
            for charset in [Charset.unicode, .ascii] {
                let screen = DeviceListViewTests.screen(state, charset: charset)
                #expect(!SanitiserTests.scalars(screen).contains(where: SanitiserTests.isHarmful), "\(columns)x\(lines) \(charset)")
                let heading = NarrowScreenTests.lines(screen)
                // Two lines of the id, cut in the middle: its head and its end, then the place.
                #expect(heading[1].hasPrefix(" name:AAAA") && heading[2].hasSuffix("END") && heading[3].hasPrefix(" In hall"), "\(heading)")
                #expect(heading[1].count <= columns - 1 && heading[2].count <= columns - 1)
                #expect(heading[1...2].joined().contains(charset.isUnicode ? "…" : "~"))
            }
        }
    }
}
