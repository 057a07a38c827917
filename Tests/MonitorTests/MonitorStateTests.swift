import BeaconFormats
import Monitor
import Testing

@Suite struct MonitorStateTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
    static let other = UUIDBytes("494E5445-4C4C-495F-524F-434B535F4857")!

    static func row(_ minor: UInt16, _ name: String?, rssi: Int?, accuracy: Double?, uuid: UUIDBytes = uuid, major: UInt16 = 1) -> BeaconRowModel {
        BeaconRowModel(identity: .iBeacon(uuid: uuid, major: major, minor: minor), exhibitName: name, rssi: rssi,
                       accuracy: accuracy, proximity: accuracy.map { $0 < 0.5 ? .immediate : ($0 < 3 ? .near : .far) } ?? .unknown)
    }

    static let rows = [
        row(1, "Rosetta Stone (cast)", rssi: -70, accuracy: 2.5),
        row(2, "Lewis Chessmen", rssi: -60, accuracy: 1.0),
        row(3, nil, rssi: nil, accuracy: nil),
        // Loud but far: the Govee frames carry a nonsense measured power (+12 dBm), see shared/data/README.
        row(62207, "Govee thermometer", rssi: -50, accuracy: 9.0, uuid: other, major: 20597),
    ]

    static func state() -> MonitorState {
        MonitorState(snapshot: MonitorSnapshot(rows: rows, source: SourceStatus(name: "govee-h5100.btsnoop", state: .replaying(speed: 1)),
                                               filterNames: ["kalman", "median"], activeFilter: "kalman"),
                     screenSize: (80, 24))
    }

    static func names(_ state: MonitorState) -> [String] { state.visibleRows.map(\.displayName) }

    @Test func sCyclesDistanceRSSINameIdWithUnknownsLast() {
        var state = Self.state()
        #expect(state.sort == .distance)
        #expect(Self.names(state) == ["Lewis Chessmen", "Rosetta Stone (cast)", "Govee thermometer", "E2C56DB5…:1:3"])
        _ = state.handle(.character("s"))
        #expect(state.sort == .rssi)
        #expect(Self.names(state) == ["Govee thermometer", "Lewis Chessmen", "Rosetta Stone (cast)", "E2C56DB5…:1:3"])
        _ = state.handle(.character("s"))
        #expect(state.sort == .name)
        #expect(Self.names(state) == ["E2C56DB5…:1:3", "Govee thermometer", "Lewis Chessmen", "Rosetta Stone (cast)"])
        _ = state.handle(.character("s"))
        #expect(state.sort == .id)
        #expect(state.visibleRows.map(\.identity.description) == [
            "494E5445-4C4C-495F-524F-434B535F4857:20597:62207", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1",
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3",
        ])
        _ = state.handle(.character("s"))
        #expect(state.sort == .distance)
    }

    /// The engine's `nearest` waits for evidence while a closer distance is already shown: the
    /// distance sort still puts it on top, so the highlighted row is the first row, as the
    /// first beacon of CoreLocation's ranged array is its closest. The other sorts ignore it.
    @Test func theDistanceSortPutsTheNearestExhibitFirst() {
        let rosetta = Self.rows[0]
        var state = Self.state()
        _ = state.update(MonitorSnapshot(
            rows: Self.rows, nearest: NearestExhibit(identity: rosetta.identity, name: "Rosetta Stone (cast)", description: "", proximity: .near),
            source: SourceStatus(name: "govee-h5100.btsnoop", state: .replaying(speed: 1)), filterNames: ["kalman", "median"], activeFilter: "kalman"
        ))
        #expect(Self.names(state) == ["Rosetta Stone (cast)", "Lewis Chessmen", "Govee thermometer", "E2C56DB5…:1:3"])
        #expect(state.selectedIndex(in: state.visibleRows) == 0)
        _ = state.handle(.character("s"))
        #expect(Self.names(state) == ["Govee thermometer", "Lewis Chessmen", "Rosetta Stone (cast)", "E2C56DB5…:1:3"])
    }

    @Test func selectionMovesClampsAndFollowsTheBeaconAcrossUpdates() {
        var state = Self.state()
        #expect(state.selectedRow?.displayName == "Lewis Chessmen")
        #expect(state.handle(.up).0 == [])
        #expect(state.handle(.down).0 == .redraw)
        #expect(state.selectedRow?.displayName == "Rosetta Stone (cast)")
        _ = state.handle(.end)
        #expect(state.selectedRow?.displayName == "E2C56DB5…:1:3")
        #expect(state.handle(.down).0 == [])
        _ = state.handle(.home)
        _ = state.handle(.down)
        // Rosetta walks up to the receiver: it becomes first, and stays selected.
        var rows = Self.rows
        rows[0].accuracy = 0.3
        var snapshot = state.snapshot
        snapshot.rows = rows
        #expect(state.update(snapshot) == .redraw)
        #expect(state.update(snapshot) == [])
        #expect(state.selectedIndex(in: state.visibleRows) == 0)
        #expect(state.selectedRow?.displayName == "Rosetta Stone (cast)")
        // When the selected beacon leaves, the selection falls back to the first row.
        snapshot.rows = Array(rows.dropFirst())
        _ = state.update(snapshot)
        #expect(state.selectedRow?.displayName == "Lewis Chessmen")
    }

    @Test func aClickSelectsTheRowDrawnOnThatLine() {
        var state = Self.state()
        // Table rows start on line 2 (title bar, column header).
        #expect(state.handle(.click(row: 4, column: 10)).0 == .redraw)
        #expect(state.selectedRow?.displayName == "Govee thermometer")
        #expect(state.handle(.click(row: 1, column: 10)).0 == [])
        #expect(state.handle(.click(row: 20, column: 10)).0 == [])
        #expect(state.selectedRow?.displayName == "Govee thermometer")
    }

    @Test func pagingAndClicksAgreeWithTheScrolledTable() {
        let many = (0..<50).map { Self.row(UInt16($0), "exhibit \($0)", rssi: -60 - $0, accuracy: Double($0) + 0.5) }
        var state = MonitorState(snapshot: MonitorSnapshot(rows: many, source: SourceStatus(name: "hci0")), screenSize: (80, 12))
        // 12 lines: title, header, 9 rows, status.
        _ = state.handle(.pageDown)
        #expect(state.selectedRow?.displayName == "exhibit 9")
        let geometry = TableGeometry(lines: 12, nearest: nil)
        #expect(geometry.firstVisibleIndex(selectedIndex: 9, rowCount: 50) == 1)
        _ = state.handle(.click(row: 2, column: 0))
        #expect(state.selectedRow?.displayName == "exhibit 1")
    }

    @Test func slashFiltersByTextAndByRegion() {
        var state = Self.state()
        #expect(state.handle(.character("/")).0 == .redraw)
        #expect(state.isEditingFilter)
        for c in "chess" { _ = state.handle(.character(c)) }
        // While typing, q and s are text, not quit and sort.
        #expect(Self.names(state) == ["Lewis Chessmen"])
        _ = state.handle(.character("q"))
        #expect(state.filterText == "chessq")
        #expect(state.handle(.backspace).0 == .redraw)
        _ = state.handle(.enter)
        #expect(!state.isEditingFilter)
        #expect(state.filterText == "chess")
        #expect(state.viewModel().totalRowCount == 4)

        _ = state.handle(.character("/"))
        _ = state.handle(.escape)
        #expect(state.filterText == "")
        #expect(state.visibleRows.count == 4)

        func filtered(_ text: String) -> [String] {
            Self.rows.filter(RowFilter(text).matches).map(\.displayName)
        }
        #expect(filtered("494E5445-4C4C-495F-524F-434B535F4857") == ["Govee thermometer"])
        #expect(filtered("e2c56db5-dffb-48d2-b060-d0f5a71096e4:1") == ["Rosetta Stone (cast)", "Lewis Chessmen", "E2C56DB5…:1:3"])
        #expect(filtered("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2") == ["Lewis Chessmen"])
        #expect(filtered("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:2") == [])
        #expect(filtered(":62207") == ["Govee thermometer"])
        #expect(RowFilter("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:x") == .text("e2c56db5-dffb-48d2-b060-d0f5a71096e4:x"))
        #expect(RowFilter("  ") == .everything)
        // Eddystone beacons are never in an iBeacon region.
        #expect(!RowFilter("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4").matches(BeaconRowModel(identity: .eddystoneURL("https://e2c56db5-dffb-48d2-b060-d0f5a71096e4"))))
    }

    @Test("/ filters the screen shown: the scanner list and the event log each a text of their own, kept across screens; the help and the detail pane filter the table")
    func slashFiltersTheScreenShown() {
        let scanners = ["pi-lobby", "pi-booth-1", "pi-booth-12"].map {
            ScannerState(name: $0, room: String($0.dropFirst(3)), alive: $0 != "pi-booth-12", declaredOnline: nil, secondsSinceHeard: 1, messages: 3,
                         offset: 0, offsetSource: "none")
        }
        let events = [MonitorEvent(time: 1, kind: .enter, message: "Rosetta Stone (cast)"), MonitorEvent(time: 2, kind: .info, message: "irk:0011aabb in café"),
                      MonitorEvent(time: 3, kind: .exit, message: "Rosetta Stone (cast)")]
        var state = MonitorState(snapshot: MonitorSnapshot(rows: Self.rows, source: SourceStatus(name: "mqtt://broker"), events: events, scanners: scanners))
        func type(_ text: String) { for c in text { _ = state.handle(.character(c)) } }
        _ = state.handle(.character("n"))
        _ = state.handle(.character("/"))
        type("BOOTH-1")
        #expect(state.screen == .scanners && state.visibleScanners.map(\.name) == ["pi-booth-1", "pi-booth-12"])
        // The state as the list shows it counts too: the one not heard is `silent`.
        for _ in 0..<7 { _ = state.handle(.backspace) }
        type("silent ")
        _ = state.handle(.enter)
        #expect(state.visibleScanners.map(\.name) == ["pi-booth-12"] && state.viewModel().totalScannerCount == 3)
        #expect(state.filterText.isEmpty && state.visibleRows.count == 4, "the table's filter is untouched")

        _ = state.handle(.character("e"))
        _ = state.handle(.character("/"))
        type("Café")
        #expect(state.screen == .events && state.visibleEvents.map(\.time) == [2])
        _ = state.handle(.backspace)
        _ = state.handle(.backspace)
        _ = state.handle(.backspace)
        _ = state.handle(.backspace)
        type("exit")
        _ = state.handle(.enter)
        #expect(state.viewModel().events.map(\.time) == [3] && state.viewModel().totalEventCount == 3)

        // Each screen keeps its text while the keys switch; Esc clears the one shown.
        _ = state.handle(.character("n"))
        #expect(state.screenFilters[.scanners] == "silent " && state.visibleScanners.count == 1)
        _ = state.handle(.character("/"))
        _ = state.handle(.escape)
        #expect(state.visibleScanners.count == 3 && state.screenFilters[.events] == "exit")

        // The help and the detail pane filter the table, as before; the health view itself.
        _ = state.handle(.character("?"))
        _ = state.handle(.character("/"))
        #expect(state.screen == .table && state.isEditingFilter)
        _ = state.handle(.escape)
        _ = state.handle(.character("H"))
        _ = state.handle(.character("/"))
        #expect(state.screen == .health && state.isEditingFilter)
        _ = state.handle(.escape)
        _ = state.handle(.character("H"))
        _ = state.handle(.enter)
        #expect(state.screen == .detail)
        _ = state.handle(.character("/"))
        type("chess")
        _ = state.handle(.enter)
        #expect(state.screen == .table && Self.names(state) == ["Lewis Chessmen"] && state.screenFilters[.events] == "exit")
    }

    /// Each frame narrowed every list, the ones of screens not shown too: an event log narrowed
    /// by `/exit` lower-cased its messages on every frame of the table. The view model carries the
    /// lists the shown screen draws; the rows wherever the title counts them.
    @Test("the view model narrows only the lists the shown screen draws")
    func theViewModelNarrowsOnlyTheShownScreensLists() {
        let scanners = ["pi-lobby", "pi-booth-1"].map {
            ScannerState(name: $0, room: String($0.dropFirst(3)), alive: true, declaredOnline: nil, secondsSinceHeard: 1, messages: 3,
                         offset: 0, offsetSource: "none")
        }
        let events = [MonitorEvent(time: 1, kind: .enter, message: "Rosetta Stone (cast)"), MonitorEvent(time: 3, kind: .exit, message: "Rosetta Stone (cast)")]
        var state = MonitorState(snapshot: MonitorSnapshot(rows: Self.rows, source: SourceStatus(name: "mqtt://broker"), events: events, scanners: scanners))
        for key in ["e", "/", "e", "x", "i", "t"] { _ = state.handle(.character(Character(key))) }
        _ = state.handle(.enter)
        let log = state.viewModel()
        #expect(log.events.map(\.time) == [3] && log.rows.count == 4 && log.scanners.isEmpty)
        _ = state.handle(.character("e"))
        let table = state.viewModel()
        #expect(state.screen == .table && table.rows.count == 4)
        #expect(table.events.isEmpty && table.scanners.isEmpty && table.devices.isEmpty, "lists of screens not shown are not built")
        #expect(table.totalEventCount == 2 && table.totalScannerCount == 2)
        _ = state.handle(.character("n"))
        let list = state.viewModel()
        #expect(list.scanners.count == 2 && list.rows.isEmpty && list.events.isEmpty)
    }

    @Test func sourceKeysBecomeCommandsForTheWiring() {
        var state = Self.state()
        let expected: [(Key, MonitorCommand)] = [
            (.character(" "), .togglePause), (.character("."), .step), (.character("+"), .speedUp), (.character("-"), .slowDown),
            (.left, .seek(seconds: -10)), (.right, .seek(seconds: 10)), (.character("r"), .toggleRecording),
            (.character("f"), .selectFilter("median")),
        ]
        for (key, command) in expected {
            let (reaction, emitted) = state.handle(key)
            #expect(emitted == command)
            #expect(reaction.contains(.command))
        }
        // f cycles from the active filter; the active filter itself changes only when the data says so.
        var snapshot = state.snapshot
        snapshot.activeFilter = "median"
        _ = state.update(snapshot)
        #expect(state.handle(.character("f")).1 == .selectFilter("kalman"))
    }

    @Test func screensToggleAndQuitStops() {
        var state = Self.state()
        _ = state.handle(.enter)
        #expect(state.screen == .detail)
        _ = state.handle(.enter)
        #expect(state.screen == .table)
        _ = state.handle(.character("?"))
        #expect(state.screen == .help)
        _ = state.handle(.character("e"))
        #expect(state.screen == .events)
        _ = state.handle(.escape)
        #expect(state.screen == .table)
        #expect(state.handle(.escape).0 == [])
        #expect(state.handle(.resize).0 == [.redraw, .fullRepaint])
        #expect(state.handle(.character("q")).0 == .quit)
        // Enter on an empty table opens nothing.
        var empty = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "hci0")))
        #expect(empty.handle(.enter).0 == [])
        #expect(empty.handle(.character("c")).1 == nil)
        #expect(empty.screen == .table)
    }

    /// Enter on the table with no selection made (the first row, the nearest, selected by default)
    /// shows that beacon until Esc: before, the pane followed the first row, so when another exhibit
    /// became nearest (the demo, a few seconds in) it showed that one under its name instead.
    /// A beacon that leaves the table while shown is said to be gone, not replaced by the first row.
    @Test func theDetailPaneKeepsItsBeaconWhenTheNearestChangesOrItIsForgotten() {
        var state = Self.state()
        #expect(Self.names(state).first == "Lewis Chessmen")
        _ = state.handle(.enter)
        #expect(state.screen == .detail)
        let source = SourceStatus(name: "govee-h5100.btsnoop", state: .replaying(speed: 1))
        var closer = Self.rows
        closer[0].accuracy = 0.3
        closer[0].proximity = .immediate
        _ = state.update(MonitorSnapshot(rows: closer, source: source))
        #expect(Self.names(state).first == "Rosetta Stone (cast)")
        #expect(state.viewModel().selectedRow?.displayName == "Lewis Chessmen")
        #expect(state.viewModel().goneBeacon == nil)

        let chessmen = Self.rows[1].identity
        _ = state.update(MonitorSnapshot(rows: closer.filter { $0.identity != chessmen }, source: source))
        #expect(state.viewModel().selectedRow == nil)
        #expect(state.viewModel().goneBeacon == chessmen)
        // `c` there calibrates nothing: it started on the table's first beacon.
        #expect(state.handle(.character("c")).1 == nil)
        #expect(state.screen == .detail)
        // Heard again: shown again.
        _ = state.update(MonitorSnapshot(rows: closer, source: source))
        #expect(state.viewModel().selectedRow?.displayName == "Lewis Chessmen")
        // The table itself still falls back to its first row.
        _ = state.update(MonitorSnapshot(rows: closer.filter { $0.identity != chessmen }, source: source))
        _ = state.handle(.escape)
        #expect(state.viewModel().selectedRow?.displayName == "Rosetta Stone (cast)")
    }

    /// On a gone beacon's pane ↓ and ↑ step from where it was: from the table's first row, ↓ on the
    /// third beacon's pane showed the second and ↑ the first.
    @Test("on a gone beacon's detail pane ↓ shows the beacon that took its place, ↑ the one above it")
    func stepsFromAGoneBeaconStartWhereItWas() {
        let source = SourceStatus(name: "govee-h5100.btsnoop", state: .replaying(speed: 1))
        let govee = Self.rows[3].identity
        for (key, expected): (Character, String) in [("j", "E2C56DB5…:1:3"), ("k", "Rosetta Stone (cast)")] {
            var state = Self.state()
            _ = state.handle(.character("j"))
            _ = state.handle(.character("j"))
            _ = state.handle(.enter)
            #expect(state.viewModel().selectedRow?.displayName == "Govee thermometer")
            _ = state.update(MonitorSnapshot(rows: Self.rows.filter { $0.identity != govee }, source: source))
            #expect(state.viewModel().goneBeacon == govee)
            #expect(state.handle(.character(key)).0 == .redraw)
            #expect(state.screen == .detail)
            #expect(state.viewModel().selectedRow?.displayName == expected, "\(key)")
        }
    }

    @Test func shortIdentitiesForNarrowColumns() {
        #expect(BeaconIdentity.iBeacon(uuid: Self.uuid, major: 100, minor: 1).shortDescription == "E2C56DB5…:100:1")
        #expect(BeaconIdentity.eddystoneUID(namespace: [0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x67, 0x89, 0x01],
                                            instance: [0, 0, 0, 0, 0, 1]).shortDescription == "123456…:000000000001")
        #expect(BeaconIdentity.eddystoneURL("https://github.com/citruz").shortDescription == "https://github.com/citruz")
    }
}
