import Monitor
import Survey
import Testing
@testable import TerminalUI

/// The help screen and the detail pane on a terminal too small for them: they scroll as `less`
/// does, and while lines are left below the last line says so. Before, a 40x12 help left 12 keys
/// out ("12 more: enlarge") and a detail pane with findings pushed the raw frame and the filters
/// under the status line with no sign they were there.
@Suite struct ScrolledScreenTests {
    /// Renders, then hands the frame's scroll position to the state, as the loop does after a draw.
    static func frame(_ state: inout MonitorState, charset: Charset = .unicode) -> [String] {
        let screen = render(state.viewModel(), size: ScreenSize(columns: state.screenSize.columns, lines: state.screenSize.lines), charset: charset)
        state.drawn(screen)
        return NarrowScreenTests.lines(screen)
    }

    /// Every line the screen holds, read by pressing `j` from the top to the end: each page's first
    /// line, then the whole last page. Also returns the pages.
    static func scrollThrough(_ state: inout MonitorState, charset: Charset = .unicode) -> (content: [String], pages: [[String]]) {
        let bottom = state.screenSize.lines - 2
        var pages = [frame(&state, charset: charset)]
        var content: [String] = []
        while state.handle(.character("j")).0 == .redraw {
            content.append(pages[pages.count - 1][state.screen == .help ? 2 : 1])
            pages.append(frame(&state, charset: charset))
        }
        content += pages[pages.count - 1][(state.screen == .help ? 2 : 1)...bottom]
        return (content, pages)
    }

    static func helpState(columns: Int, lines: Int) throws -> MonitorState {
        let rows = [Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -60, accuracy: 1, proximity: .near),
                    Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -70, accuracy: 3, proximity: .far)]
        var state = MonitorState(snapshot: Museum.snapshot(rows: rows), screenSize: (columns, lines))
        _ = state.handle(.character("?"))
        return state
    }

    @Test("the help at 40x12 scrolls with j/k, PgUp/PgDn, Home/End: 12 keys could not be seen ('12 more: enlarge')")
    func theHelpScrollsOnASmallTerminal() throws {
        var state = try Self.helpState(columns: 40, lines: 12)
        let top = Self.frame(&state)
        #expect(top[1] == " Keys (Esc or ? returns)")
        #expect(top[2...3] == [" q          quit (the terminal is", "            restored)"], "\(top)")
        #expect(top[10] == " ↓ 33 more lines (j/k, PgDn)", "\(top)")
        // k at the top does nothing; j does not move the selection behind the help.
        #expect(state.handle(.character("k")).0 == [])
        let (content, pages) = Self.scrollThrough(&state)
        #expect(state.selectedRow?.identity == Museum.rosetta)
        // Read line by line, the screen holds every key and every summary whole, in one column:
        // the same lines a terminal tall enough for them shows at once.
        var tall = try Self.helpState(columns: 40, lines: 60)
        let whole = Self.frame(&tall)
        #expect(tall.scrollLimit == 0)
        let listed = Array(whole[2...].prefix { !$0.isEmpty })
        #expect(content == listed)
        #expect(listed.count == pages.count - 1 + 9)
        for binding in KeyMap.standard.bindings {
            let keys = binding.keys.map(\.label).joined(separator: " ").padding(toLength: 11, withPad: " ", startingAt: 0)
            let start = try #require(listed.firstIndex { $0.hasPrefix(" " + keys) }, "\(binding.summary): \(listed)")
            // A summary wraps under itself: its lines joined are the summary.
            let lines = [String(listed[start].dropFirst(12))] + listed[(start + 1)...].prefix { $0.hasPrefix("            ") }.map { String($0.dropFirst(12)) }
            #expect(lines.joined(separator: " ") == binding.summary)
        }
        // At the end nothing is cut: no marker, the last key on the last line.
        #expect(pages.last?[10] == " Esc Bksp   back to the table")
        #expect(pages.dropLast().allSatisfy { $0[10].hasPrefix(" ↓ ") })
        // Home, End, PgUp and PgDn as in less; a page is the 8 lines above the marker.
        _ = state.handle(.home)
        #expect(Self.frame(&state) == top)
        _ = state.handle(.pageDown)
        #expect(Self.frame(&state)[2] == listed[8])
        _ = state.handle(.end)
        #expect(Self.frame(&state) == pages.last)
        _ = state.handle(.pageUp)
        #expect(Self.frame(&state)[2] == listed[listed.count - 9 - 8])
        // ?/Esc close it as before; opened again it starts at the top.
        _ = state.handle(.escape)
        #expect(state.screen == .table)
        _ = state.handle(.character("?"))
        #expect(Self.frame(&state) == top)
    }

    @Test("the help's marker in ASCII under LANG=C, and a help that fits has none")
    func theHelpMarkerInASCIIAndNoneWhenItFits() throws {
        var state = try Self.helpState(columns: 50, lines: 15)
        let lines = Self.frame(&state, charset: .ascii)
        #expect(lines[13].hasSuffix(" more lines below (j/k, PgDn)") && lines[13].allSatisfy(\.isASCII), "\(lines)")
        // 80x24: two columns side by side, every summary whole, nothing to scroll.
        var wide = try Self.helpState(columns: 80, lines: 24)
        let screen = Self.frame(&wide)
        #expect(wide.scrollLimit == 0)
        #expect(!screen.joined().contains("more lines"))
        #expect(screen[2...3] == [" q          quit (the terminal is        space      pause or resume",
                                  "            restored)                    .          pause, then step one packet"], "\(screen)")
    }

    /// A beacon whose frame claims +12 dBm at 1 m (a finding) and a second beacon to step to.
    static func detailState(columns: Int, lines: Int) throws -> MonitorState {
        let transmitter = HealthViewTests.transmitters[3]
        let identity = try #require(transmitter.identities.first)
        var row = try SecondaryScreenTests.vectorRow()
        row.identity = identity
        row.exhibitName = "Harrison's H4 Chronometer (replica)"
        let other = Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -70, accuracy: 3, proximity: .far)
        var snapshot = SecondaryScreenTests.state(row).snapshot
        snapshot.rows = [row, other]
        snapshot.health = BeaconConditions(time: 60, transmitters: HealthViewTests.transmitters, byIdentity: [identity: BeaconCondition(health: transmitter)])
        var state = MonitorState(snapshot: snapshot, screenSize: (columns, lines))
        _ = state.handle(.enter)
        return state
    }

    @Test("a detail pane with findings at 40x12 scrolls to its raw frame and filters; they were under the status line")
    func theDetailPaneScrollsToItsRawFrameAndFilters() throws {
        var state = try Self.detailState(columns: 40, lines: 12)
        let top = Self.frame(&state)
        #expect(top[1] == " Harrison's H4 Chronometer (replica)", "\(top)")
        #expect(top[10].hasPrefix(" ↓ ") && top[10].hasSuffix(" more lines (j/k, PgDn)"), "\(top)")
        #expect(!top.contains { $0.hasPrefix(" Last raw frame") })
        let (content, pages) = Self.scrollThrough(&state)
        #expect(state.selectedRow?.exhibitName == "Harrison's H4 Chronometer (replica)", "j scrolls the pane, not to the next beacon")
        let end = try #require(pages.last)
        #expect(end[9].hasPrefix(" Filters:") && end[10] == "           raw ?", "\(end)")
        #expect(content.contains(" Last raw frame (30 bytes)"), "\(content)")
        #expect(content.contains { $0.hasPrefix("! ") })
        // Every line once, in order: the pane as a 40x40 terminal shows it, less the charts that
        // only a taller screen has room for.
        #expect(content.first == top[1] && content.count == pages.count - 1 + 10)
        // Where the pane fits, the arrows step through the beacons' details as before.
        var roomy = try Self.detailState(columns: 80, lines: 40)
        _ = Self.frame(&roomy)
        #expect(roomy.scrollLimit == 0)
        _ = roomy.handle(.down)
        #expect(roomy.selectedRow?.exhibitName == "Lewis Chessmen")
    }
}

extension ScrolledScreenTests {
    @Test("the health view and the scanner list scroll to their last row; at 40x12 the rows past the ninth were left off unsaid")
    func theHealthViewAndTheScannerListScroll() throws {
        // Ten transmitters (the demo's count), the last with a finding on two lines.
        let transmitters = (0..<9).map { HealthViewTests.transmitter(major: 1, minor: UInt16($0), address: "C0:00:00:00:00:0\($0)") }
            + [HealthViewTests.transmitter(major: 1, minor: 99, address: "C0:00:00:00:00:99", findings: [.nonsenseMeasuredPower(frame: 12)])]
        var health = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "hci0"), health: BeaconConditions(time: 60, transmitters: transmitters)),
                                  screenSize: (40, 12))
        _ = health.handle(.character("H"))
        let top = Self.frame(&health)
        #expect(top[1].hasPrefix(" NAME"))
        #expect(top[10] == " ↓ 4 more lines (j/k, PgDn)", "\(top)")
        _ = health.handle(.end)
        let end = Self.frame(&health)
        #expect(end[1] == top[1], "the column heading stays")
        #expect(end[8].hasPrefix("!") && end[8].contains(":1:99") && end[9].hasPrefix("   frame says +12 dBm") && end[10].hasPrefix("   "), "\(end)")
        _ = health.handle(.character("k"))
        #expect(Self.frame(&health)[10] == " ↓ 2 more lines (j/k, PgDn)")

        let scanners = (1...12).map { ScannerState(name: "pi-\($0)", room: "room-\($0)", alive: true, declaredOnline: true, secondsSinceHeard: 0.5, messages: 9, offset: 0, offsetSource: "none") }
        var list = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "mqtt://broker"), scanners: scanners), screenSize: (40, 12))
        _ = list.handle(.character("n"))
        #expect(Self.frame(&list)[10] == " ↓ 4 more lines (j/k, PgDn)")
        _ = list.handle(.pageDown)
        let last = Self.frame(&list)
        #expect(last[10].hasPrefix(" pi-12 ") && !last.joined().contains("more line"), "\(last)")
    }
}

extension ScrolledScreenTests {
    @Test("the event log scrolls back to its earlier events and stays put while new ones arrive; only the newest that fit could be read")
    func theEventLogScrollsBack() throws {
        let events = (0..<12).map { MonitorEvent(time: Double($0) * 30, kind: $0 % 2 == 0 ? .enter : .exit, message: "exhibit \($0)") }
        var state = SecondaryScreenTests.state(try SecondaryScreenTests.vectorRow(), events: events)
        state.screenSize = (60, 10)
        _ = state.handle(.character("e"))
        let end = Self.frame(&state)
        #expect(end[2] == " ↑ 6 earlier lines (k/j, PgUp)" && end[8] == " 05:30 exit     exhibit 11", "\(end)")
        _ = state.handle(.character("k"))
        let up = Self.frame(&state)
        #expect(up[2] == " ↑ 5 earlier lines (k/j, PgUp)" && up[8] == " ↓ 2 more lines (j/k, PgDn)", "\(up)")
        _ = state.handle(.home)
        let top = Self.frame(&state)
        #expect(top[2] == " 00:00 enter    exhibit 0" && top[8] == " ↓ 6 more lines (j/k, PgDn)", "\(top)")
        // A new event while scrolled back: the view stays where it is, one more line below.
        var snapshot = state.snapshot
        snapshot.events.append(MonitorEvent(time: 400, kind: .warning, message: "hci0 lost: device removed"))
        _ = state.update(snapshot)
        #expect(Self.frame(&state)[2...8] == top[2...7] + [" ↓ 7 more lines (j/k, PgDn)"])
        // End goes back to the newest, and the log follows new events from there.
        _ = state.handle(.end)
        #expect(Self.frame(&state)[8] == " 06:40 warning  hci0 lost: device removed")
        snapshot.events.append(MonitorEvent(time: 410, kind: .info, message: "hci0 back"))
        _ = state.update(snapshot)
        let following = Self.frame(&state)
        #expect(following[7...8] == [" 06:40 warning  hci0 lost: device removed", " 06:50 info     hci0 back"], "\(following)")
        // ASCII markers under LANG=C.
        _ = state.handle(.pageUp)
        let ascii = Self.frame(&state, charset: .ascii)
        #expect(ascii[2].hasSuffix(" earlier lines above (k/j, PgUp)") && ascii[8].hasSuffix(" more lines below (j/k, PgDn)"), "\(ascii)")
    }
}

extension ScrolledScreenTests {
    @Test("a venue beacon's detail heard by more scanners than lines scrolls its readings under the heading; the rest were left off")
    func aVenueDetailScrollsItsReadings() {
        let cells = (1...12).map { VenuePlacement.ScannerCell(scanner: "pi-\($0)", room: "room-\($0)", rssi: Double(-50 - $0), level: Double(-$0), distance: 1, age: 0.5) }
        var row = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -51, accuracy: 1, proximity: .near)
        row.venue = VenuePlacement(room: "room-1", scanner: "pi-1", runnerUp: nil, scanners: cells)
        var state = MonitorState(snapshot: Museum.snapshot(rows: [row]), screenSize: (40, 12))
        _ = state.handle(.enter)
        let top = Self.frame(&state)
        #expect(top[3].hasPrefix(" SCANNER") && top[4].hasPrefix(">pi-1 "), "\(top)")
        #expect(top[10] == " ↓ 6 more lines (j/k, PgDn)", "\(top)")
        _ = state.handle(.end)
        let end = Self.frame(&state)
        #expect(end[1...3] == top[1...3], "the heading stays")
        #expect(end[10].hasPrefix(" pi-12 ") && !end.joined().contains("more line"), "\(end)")
    }
}

extension ScrolledScreenTests {
    /// Twelve events whose messages take one line at 80 columns and two at 40.
    static func wrappingLog(columns: Int) throws -> MonitorState {
        let events = (0..<12).map { MonitorEvent(time: Double($0) * 30, kind: .enter, message: "exhibit \($0): visitor came in from the east") }
        var state = SecondaryScreenTests.state(try SecondaryScreenTests.vectorRow(), events: events)
        state.screenSize = (columns, 10)
        _ = state.handle(.character("e"))
        return state
    }

    static func resize(_ state: inout MonitorState, columns: Int) {
        state.screenSize = (columns, state.screenSize.lines)
        _ = state.handle(.resize)
    }

    @Test("the event log scrolled back keeps the line being read across a resize; it showed other events, as lines wrap anew")
    func theEventLogKeepsItsLineAcrossAResize() throws {
        var state = try Self.wrappingLog(columns: 80)
        _ = Self.frame(&state)
        _ = state.handle(.home)
        for _ in 0..<3 { _ = state.handle(.character("j")) }
        let wide = Self.frame(&state)
        #expect(wide[2] == " ↑ 4 earlier lines (k/j, PgUp)" && wide[3] == " 02:00 enter    exhibit 4: visitor came in from the east", "\(wide)")
        // Narrower, each event takes two lines: exhibit 4 is still the first line read.
        Self.resize(&state, columns: 40)
        let narrow = Self.frame(&state)
        #expect(narrow[2] == " ↑ 8 earlier lines (k/j, PgUp)" && narrow[3] == " 02:00 enter    exhibit 4: visitor came", "\(narrow)")
        // The keys count from there: a line up is exhibit 3's second line.
        _ = state.handle(.character("k"))
        #expect(Self.frame(&state)[3] == "                in from the east", "\(state.scroll)")
        // Wider again, that line's event is the first read.
        Self.resize(&state, columns: 80)
        #expect(Self.frame(&state)[3] == " 01:30 enter    exhibit 3: visitor came in from the east")
        // The oldest events dropped (the log keeps 500) while it is read: the line stays too.
        var snapshot = state.snapshot
        snapshot.events.removeFirst(2)
        _ = state.update(snapshot)
        let dropped = Self.frame(&state)
        #expect(dropped[2] == " 01:00 enter    exhibit 2: visitor came in from the east" && dropped[3] == " 01:30 enter    exhibit 3: visitor came in from the east", "\(dropped)")
    }

    @Test("the event log following its end still shows the newest event after a resize")
    func theEventLogFollowingItsEndFollowsAcrossAResize() throws {
        var state = try Self.wrappingLog(columns: 80)
        #expect(Self.frame(&state)[8] == " 05:30 enter    exhibit 11: visitor came in from the east")
        Self.resize(&state, columns: 40)
        #expect(Self.frame(&state)[7...8] == [" 05:30 enter    exhibit 11: visitor came", "                in from the east"])
        var snapshot = state.snapshot
        snapshot.events.append(MonitorEvent(time: 400, kind: .warning, message: "hci0 lost"))
        _ = state.update(snapshot)
        #expect(Self.frame(&state)[8] == " 06:40 warning  hci0 lost")
    }
}
