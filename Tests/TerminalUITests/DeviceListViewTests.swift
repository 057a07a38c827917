import Monitor
import Testing
@testable import TerminalUI

/// The `d` list: the devices a venue tracks (ESPresense ids that name no beacon: phones), which the
/// event log named ("irk:0011aabb in café") while no row or list showed them. Whole screens as text
/// plus roles, from 40x12 to 200x60, in Unicode and ASCII, and ids from the network drawn safely.
@Suite struct DeviceListViewTests {
    static func device(_ id: String, room: String?, scanner: String, rssi: Double, distance: Double?, age: Double) -> VenueDevice {
        VenueDevice(id: id, room: room, reading: VenuePlacement.ScannerCell(
            scanner: scanner, room: room ?? scanner, rssi: rssi, level: rssi + 59, distance: distance, age: age))
    }

    /// A phone by its IRK, one by its name placed by a scanner named apart from its room, and one
    /// whose evidence is still piling up (no room yet, no distance reported).
    static let devices = [
        device("irk:0011aabb", room: "café", scanner: "café", rssi: -55, distance: 0.82, age: 0.4),
        device("name:Visitor's phone", room: "hall", scanner: "esp32-hall-north-door", rssi: -62, distance: 2.25, age: 1.5),
        device("apple:1006:10", room: nil, scanner: "shop", rssi: -84.5, distance: nil, age: 3.2),
    ]

    static func state(_ devices: [VenueDevice], columns: Int, lines: Int) -> MonitorState {
        MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "mqtt://broker", state: .scanning), devices: devices), screenSize: (columns, lines))
    }

    static func screen(_ state: MonitorState, charset: Charset = .unicode) -> ScreenBuffer {
        render(state.viewModel(), size: ScreenSize(columns: state.screenSize.columns, lines: state.screenSize.lines), charset: charset)
    }

    @Test("d lists each device: id, room, the scanner placing it, RSSI, distance, age; one not yet placed is stale; d again returns")
    func theListAtEightyColumns() {
        var state = Self.state(Self.devices, columns: 80, lines: 10)
        // The table's title counts the devices beside the beacons, so a person knows d has some.
        #expect(Self.screen(state).line(0).trimmingTrailingSpaces() == " beacontop                                0 beacons, 3 devices · sort: distance")
        #expect(state.handle(.character("d")) == (.redraw, nil))
        let screen = Self.screen(state)
        #expect(screen.text == """
             beacontop · devices                                                  3 devices
             DEVICE                         ROOM           SCANNER         RSSI DIST m  AGE
             irk:0011aabb                   café           café             -55   0.82 0.4s
             name:Visitor's phone           hall           esp32…rth-door   -62   2.25 1.5s
             apple:1006:10                  ?              shop             -85      ? 3.2s




             mqtt://broker scanning · 0 adv/s                                        ? help
            """)
        let roles = ScreenScenarioTests.roles(screen).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(roles[1] == Substring(String(repeating: "C", count: 80)))
        #expect(roles[2] == Substring(String(repeating: "S", count: 80)), "the first is selected, as the table's first row")
        #expect(roles[3] == "", "placed devices are plain")
        #expect(roles[4] == Substring(String(repeating: "s", count: 80)), "no room yet: stale")
        _ = state.handle(.character("d"))
        #expect(state.screen == .table)
    }

    @Test("40x12 keeps id, room, RSSI, distance and age whole (the scanner column goes below 59); ASCII; 200x60")
    func narrowWideAndASCII() {
        var state = Self.state(Self.devices, columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        #expect(Array(NarrowScreenTests.lines(Self.screen(state))[0...4]) == [
            " beacontop · devices          3 devices",
            " DEVICE       ROOM     RSSI DIST m  AGE",
            " irk:0011aabb café      -55   0.82 0.4s",
            " name…s phone hall      -62   2.25 1.5s",
            " app…:1006:10 ?         -85      ? 3.2s",
        ])
        #expect(Array(NarrowScreenTests.lines(Self.screen(state, charset: .ascii))[0...4]) == [
            " beacontop | devices          3 devices",
            " DEVICE       ROOM     RSSI DIST m  AGE",
            " irk:0011aabb caf?      -55   0.82 0.4s",
            " name~s phone hall      -62   2.25 1.5s",
            " app~:1006:10 ?         -85      ? 3.2s",
        ])
        // From 59 columns the scanner that places each device has a column of its own.
        state.screenSize = (59, 12)
        #expect(Array(NarrowScreenTests.lines(Self.screen(state))[1...3]) == [
            " DEVICE              ROOM      SCANNER    RSSI DIST m  AGE",
            " irk:0011aabb        café      café        -55   0.82 0.4s",
            " na…:Visitor's phone hall      esp…-door   -62   2.25 1.5s",
        ])
        // 200 columns: the id column stops at 40, names 20 each, so a short id stays near its room.
        state.screenSize = (200, 60)
        let wide = NarrowScreenTests.lines(Self.screen(state))
        #expect(Array(wide[1...3]) == [
            " DEVICE                                  ROOM                SCANNER              RSSI DIST m  AGE",
            " irk:0011aabb                            café                café                  -55   0.82 0.4s",
            " name:Visitor's phone                    hall                esp32-…l-north-door   -62   2.25 1.5s",
        ])
        #expect(wide[5...58].allSatisfy(\.isEmpty) && wide[59].hasPrefix(" mqtt://broker scanning"))
    }

    static let many = (1...14).map { device("irk:\(String($0, radix: 16))0aabb", room: "room-\($0)", scanner: "room-\($0)", rssi: -60, distance: 1, age: 0.5) }

    /// Which line of the frame is drawn selected.
    static func selectedLine(_ state: MonitorState) -> Int? {
        ScreenScenarioTests.roles(screen(state)).split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("SSSS") }
    }

    @Test("more devices than lines: j, PgDn and End move the selection and the list scrolls as little as keeps it in view, above the marker; at 40x12 the rest were nowhere")
    func theListScrolls() {
        var state = Self.state(Self.many, columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        let top = ScrolledScreenTests.frame(&state)
        #expect(top[2] == " irk:10aabb   room-1    -60   1.00 0.5s" && top[10] == " ↓ 6 more lines (j/k, PgDn)", "\(top)")
        for _ in 0..<7 { _ = state.handle(.character("j")) }
        let seventh = ScrolledScreenTests.frame(&state)
        #expect(seventh[2] == top[2] && seventh[9].hasPrefix(" irk:80aabb ") && Self.selectedLine(state) == 9, "\(seventh)")
        // One more: the list moves up a line, the selection stays above the marker.
        _ = state.handle(.character("j"))
        let eighth = ScrolledScreenTests.frame(&state)
        #expect(eighth[2].hasPrefix(" irk:20aabb ") && eighth[9].hasPrefix(" irk:90aabb ") && Self.selectedLine(state) == 9, "\(eighth)")
        _ = state.handle(.end)
        let end = ScrolledScreenTests.frame(&state)
        #expect(end[1] == top[1], "the column heading stays")
        #expect(end[10] == " irk:e0aabb   room-14   -60   1.00 0.5s" && !end.joined().contains("more line"), "\(end)")
        #expect(Self.selectedLine(state) == 10)
        _ = state.handle(.pageUp)
        #expect(ScrolledScreenTests.frame(&state)[2].hasPrefix(" irk:60aabb ") && Self.selectedLine(state) == 2, "a page up: 8 devices")
        _ = state.handle(.home)
        #expect(ScrolledScreenTests.frame(&state)[2] == top[2] && Self.selectedLine(state) == 2)
        _ = state.handle(.pageDown)
        #expect(ScrolledScreenTests.frame(&state)[9].hasPrefix(" irk:90aabb ") && Self.selectedLine(state) == 9)
        // The list opened again shows the device still selected.
        _ = state.handle(.character("d"))
        _ = state.handle(.character("d"))
        #expect(ScrolledScreenTests.frame(&state)[9].hasPrefix(" irk:90aabb ") && Self.selectedLine(state) == 9)
    }

    @Test("a click selects the device drawn on that line, scrolled or not; the heading, the title and the status line select nothing")
    func aClickSelects() {
        var state = Self.state(Self.many, columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        _ = ScrolledScreenTests.frame(&state)
        #expect(state.handle(.click(row: 5, column: 3)) == (.redraw, nil))
        #expect(state.selectedDevice == "irk:40aabb" && Self.selectedLine(state) == 5)
        _ = state.handle(.end)
        _ = ScrolledScreenTests.frame(&state)
        _ = state.handle(.click(row: 2, column: 3))
        #expect(state.selectedDevice == "irk:60aabb", "the list's top is the sixth device at its end")
        for line in [0, 1, 11] { #expect(state.handle(.click(row: line, column: 3)) == ([], nil)) }
        _ = state.handle(.enter)
        #expect(state.screen == .deviceDetail && state.viewModel().shownDevice?.id == "irk:60aabb")
    }

    @Test("a selected device that leaves hands the selection to the one in its place, not the top; it is selected again when it comes back")
    func aSelectedDeviceThatLeaves() {
        var state = Self.state(Self.devices, columns: 80, lines: 10)
        _ = state.handle(.character("d"))
        _ = state.handle(.down)
        #expect(Self.selectedLine(state) == 3)
        // A phone whose id sorts first arrives: the visitor's moves down a line, still selected.
        var snapshot = state.snapshot
        let first = Self.device("apple:0001:01", room: "hall", scanner: "hall", rssi: -70, distance: 2, age: 0.1)
        snapshot.devices.insert(first, at: 0)
        _ = state.update(snapshot)
        #expect(Self.screen(state).line(4).hasPrefix(" name:Visitor's phone ") && Self.selectedLine(state) == 4)
        // It leaves: the one now in its place, the last, is selected.
        snapshot.devices.remove(at: 2)
        _ = state.update(snapshot)
        #expect(Self.screen(state).line(4).hasPrefix(" apple:1006:10 ") && Self.selectedLine(state) == 4)
        snapshot.devices = [first] + Self.devices
        _ = state.update(snapshot)
        #expect(Self.screen(state).line(4).hasPrefix(" name:Visitor's phone ") && Self.selectedLine(state) == 4, "back, and selected again")
        snapshot.devices = Self.devices
        // The last device leaving: the one above it now ends the list.
        _ = state.handle(.end)
        snapshot.devices.removeLast()
        _ = state.update(snapshot)
        #expect(Self.selectedLine(state) == 3)
        snapshot.devices = []
        _ = state.update(snapshot)
        #expect(Self.selectedLine(state) == nil && state.handle(.enter) == ([], nil), "nothing to show")
    }

    @Test("scrolled, the list keeps the device being read at its top as phones arrive or leave above it (sorted by id), as the scanner list keeps its scanner")
    func theListKeepsItsDevice() throws {
        let many = (1...14).map { Self.device("irk:\(String($0, radix: 16))0aabb", room: "room-\($0)", scanner: "room-\($0)", rssi: -60, distance: 1, age: 0.5) }
        var state = Self.state(many, columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        _ = try ScrolledScreenTests.scroll(&state, untilLine: 2, startsWith: " irk:40aabb ")
        // A phone whose id sorts first arrives, then two leave before the one read.
        var snapshot = state.snapshot
        snapshot.devices.insert(Self.device("irk:0000", room: "hall", scanner: "hall", rssi: -70, distance: 2, age: 0.1), at: 0)
        _ = state.update(snapshot)
        #expect(ScrolledScreenTests.frame(&state)[2].hasPrefix(" irk:40aabb "))
        snapshot.devices.removeFirst(2)
        _ = state.update(snapshot)
        #expect(ScrolledScreenTests.frame(&state)[2].hasPrefix(" irk:40aabb "))
        // Wider, the same device is at the top.
        ScrolledScreenTests.resize(&state, columns: 70, lines: 12)
        #expect(ScrolledScreenTests.frame(&state)[2].hasPrefix(" irk:40aabb "))
    }

    @Test("/ on the list: the prompt says what it matches, the list narrows, the title counts 1 of 3 and shows the filter; none matching says so")
    func theFilterNarrowsTheList() {
        var state = Self.state(Self.devices, columns: 80, lines: 10)
        _ = state.handle(.character("d"))
        _ = state.handle(.character("/"))
        for character in "CAFÉ" { _ = state.handle(.character(character)) }
        let typing = NarrowScreenTests.lines(Self.screen(state))
        #expect(typing[0] == " beacontop · devices                                             1 of 3 devices")
        #expect(Array(typing[2...3]) == [" irk:0011aabb                   café           café             -55   0.82 0.4s", ""])
        #expect(typing[9] == " / devices (id, room, scanner): CAFÉ_")
        _ = state.handle(.enter)
        let kept = NarrowScreenTests.lines(Self.screen(state))
        #expect(kept[0] == " beacontop · devices                                     1 of 3 devices · /CAFÉ")
        #expect(kept[9].hasPrefix(" mqtt://broker scanning"))
        // The scanner's name counts too: the hall's north door places the visitor's phone.
        _ = state.handle(.character("/"))
        for _ in 0..<4 { _ = state.handle(.backspace) }
        for character in "north" { _ = state.handle(.character(character)) }
        #expect(NarrowScreenTests.lines(Self.screen(state))[2].hasPrefix(" name:Visitor's phone "))
        for character in "-gate" { _ = state.handle(.character(character)) }
        _ = state.handle(.enter)
        state.screenSize = (40, 12)
        #expect(Array(NarrowScreenTests.lines(Self.screen(state))[0...4]) == [
            // The filter gives way first on a narrow title bar, as the table's does.
            " beacontop · devices     0 of 3 devices",
            " DEVICE       ROOM     RSSI DIST m  AGE",
            "  No device matches the filter",
            "  \"north-gate\" (id, room or scanner)",
            "",
        ])
        // The table's title counts every device whatever the list's filter.
        _ = state.handle(.character("d"))
        #expect(NarrowScreenTests.lines(Self.screen(state))[0].hasSuffix(" 0 beacons, 3 devices"))
    }

    @Test("a filter keeps the selected device selected and in view, across a resize too; one the filter hides is selected again once it is cleared")
    func theFilteredListKeepsTheSelection() {
        let phones = (1...14).map { Self.device("irk:\(String($0, radix: 16))0aabb", room: "room-\($0)", scanner: "room-\($0)", rssi: -60, distance: 1, age: 0.5) }
        let names = (1...6).map { Self.device("name:phone \($0)", room: "hall", scanner: "hall", rssi: -70, distance: 2, age: 0.5) }
        var state = Self.state(phones + names, columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        for _ in 0..<11 { _ = state.handle(.character("j")) }
        #expect(ScrolledScreenTests.frame(&state)[9].hasPrefix(" irk:c0aabb ") && Self.selectedLine(state) == 9)
        _ = state.handle(.character("/"))
        for character in "irk" { _ = state.handle(.character(character)) }
        let typed = ScrolledScreenTests.frame(&state)
        #expect(typed[9].hasPrefix(" irk:c0aabb ") && Self.selectedLine(state) == 9 && typed[0].hasSuffix("14 of 20 devices"), "\(typed)")
        _ = state.handle(.enter)
        ScrolledScreenTests.resize(&state, columns: 70, lines: 12)
        let wide = ScrolledScreenTests.frame(&state)
        #expect(wide[2].hasPrefix(" irk:50aabb ") && wide[9].hasPrefix(" irk:c0aabb ") && Self.selectedLine(state) == 9, "\(wide)")
        _ = state.handle(.end)
        let end = ScrolledScreenTests.frame(&state)
        #expect(end[10].hasPrefix(" irk:e0aabb ") && !end.joined().contains("name:") && Self.selectedLine(state) == 10, "\(end)")
        _ = state.handle(.up)
        _ = state.handle(.character("/"))
        for _ in 0..<3 { _ = state.handle(.backspace) }
        for character in "name" { _ = state.handle(.character(character)) }
        _ = state.handle(.enter)
        #expect(Self.selectedLine(state) != nil, "a device is selected among the names")
        _ = state.handle(.character("/"))
        _ = state.handle(.escape)
        #expect(state.viewModel().selectedDeviceIndex == 12 && state.selectedDevice == "irk:d0aabb", "the filter cleared, the device selected before")
    }

    @Test("none yet: a line says what the list holds and where it comes from")
    func anEmptyList() {
        var state = Self.state([], columns: 40, lines: 12)
        _ = state.handle(.character("d"))
        #expect(Array(NarrowScreenTests.lines(Self.screen(state))[0...5]) == [
            " beacontop · devices          0 devices",
            " DEVICE       ROOM     RSSI DIST m  AGE",
            "  No devices tracked yet (the device",
            "  list is a venue's: ESPresense ids",
            "  that name no beacon, as a phone's",
            "  irk:... or name:...).",
        ])
    }

    @Test("a hostile device id (escape sequences, OSC title, 8-bit CSI, bidi override, 248 bytes, wide characters) is drawn harmless and stays in its column")
    func hostileIDs() {
        // The decoder refuses C0, DEL and C1 in an id; the list must not lean on it (a recording or
        // another decoder could hand it anything), so these carry them as well as what it lets by.
        let escapes = "irk:\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m"
        let bidi = "name:\u{202E}enohp s'rotisiV\u{2066}\u{200B}"
        let overlong = "name:" + String(repeating: "A", count: 120) + String(repeating: "é", count: 60) + "END"
        let wide = "name:携帯電話携帯電話携帯電話携帯電話携帯電話"
        let devices = [escapes, bidi, overlong, wide].enumerated().map { index, id in
            Self.device(id, room: "room\u{1B}[31m\(index)", scanner: "node\u{202E}\(index)", rssi: -60, distance: 1, age: 0.5)
        }
        var state = Self.state(devices, columns: 80, lines: 10)
        _ = state.handle(.character("d"))
        #expect(Array(NarrowScreenTests.lines(Self.screen(state))[2...5]) == [
            " irk:�[2J�]0;pwned��31m         room�[31m0     node�0           -60   1.00 0.5s",
            " name:�enohp s'rotisiV��        room�[31m1     node�1           -60   1.00 0.5s",
            // Cut in the middle: its head and its end, never past its column.
            " name:AAAAA…ééééééééééééééééEND room�[31m2     node�2           -60   1.00 0.5s",
            " name:携帯電…話携帯電話携帯電話 room�[31m3     node�3           -60   1.00 0.5s",
        ])
        #expect(Array(NarrowScreenTests.lines(Self.screen(state, charset: .ascii))[2...5]) == [
            " irk:?[2J?]0;pwned??31m         room?[31m0     node?0           -60   1.00 0.5s",
            " name:?enohp s'rotisiV??        room?[31m1     node?1           -60   1.00 0.5s",
            " name:AAAAA~????????????????END room?[31m2     node?2           -60   1.00 0.5s",
            " name:????????????????????      room?[31m3     node?3           -60   1.00 0.5s",
        ])
        for (columns, lines) in [(40, 12), (59, 15), (200, 60)] {
            for charset in [Charset.unicode, .ascii] {
                state.screenSize = (columns, lines)
                let screen = Self.screen(state, charset: charset)
                #expect(!SanitiserTests.scalars(screen).contains(where: SanitiserTests.isHarmful), "\(columns)x\(lines) \(charset)")
                #expect(!SanitiserTests.scalars(screen).contains { $0.value == 0x200B || $0.value == 0x2066 })
                let roomX = 1 + DeviceListView.layout(width: columns).device
                for y in 2...5 {
                    // Each id ends before its column does: a space, then the room where its heading is.
                    #expect(screen[roomX - 1, y].character == " " && screen[roomX, y].character == "r", "\(columns) \(charset): \(screen.line(y))")
                    #expect(screen.line(y).trimmingTrailingSpaces().hasSuffix(" -60   1.00 0.5s"), "\(screen.line(y))")
                }
            }
        }
    }
}
