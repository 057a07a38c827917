import BeaconFormats
import Monitor
import Ranging
import Survey
import Testing
@testable import TerminalUI

/// The screens at the sizes of a serial console, a split tmux pane or a phone's SSH app (40x12 to
/// 60x20), as whole lines: nothing a person needs cut at the edge or run into its neighbour.
@Suite struct NarrowScreenTests {
    static func lines(_ screen: ScreenBuffer) -> [String] {
        (0..<screen.height).map { screen.line($0).trimmingTrailingSpaces() }
    }

    @Test("the event log's message starts at column 16, not 32: at 40 columns it had 8 columns")
    func theEventLogLeavesANarrowScreenRoomForTheMessage() throws {
        let events = [
            MonitorEvent(time: 9, kind: .info, message: "nearest: Rosetta Stone (cast)"),
            MonitorEvent(time: 34, kind: .enter, message: "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:10"),
            MonitorEvent(time: 400, kind: .warning, message: "hci0 lost: device removed"),
        ]
        var state = SecondaryScreenTests.state(try SecondaryScreenTests.vectorRow(), events: events)
        _ = state.handle(.character("e"))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12))
        #expect(Array(Self.lines(screen)[1...7]) == [
            "  TIME KIND     WHAT         Events (3)",
            " 00:09 info     nearest: Rosetta Stone",
            "                (cast)",
            // A long id breaks after a '-' rather than at the edge.
            " 00:34 enter    8F3A2C61-5B7E-4D19-A0C4-",
            "                2E6B9F1D7A35:1:10",
            " 06:40 warning  hci0 lost: device",
            "                removed",
        ])
        // Where the edge falls inside the UUID, the line still ends at its last '-'.
        #expect(Wrap.words("entered 8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:10", width: 30, lines: 4, ellipsis: "…", charset: .unicode)
            == ["entered", "8F3A2C61-5B7E-4D19-A0C4-", "2E6B9F1D7A35:1:10"])
        // Past an hour the time column widens for every row, so the messages stay in one column.
        var late = SecondaryScreenTests.state(try SecondaryScreenTests.vectorRow(), events: events + [MonitorEvent(time: 3725, kind: .exit, message: "Rosetta Stone (cast)")])
        _ = late.handle(.character("e"))
        let wide = Self.lines(render(late.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(wide[2] == "   00:09 info     nearest: Rosetta Stone")
        #expect(wide.contains(" 1:02:05 exit     Rosetta Stone (cast)"), "\(wide)")
    }

    @Test("a cut source name keeps its kind: at 40 columns sim:demo/museum.yaml read …:demo/museum.yaml")
    func aCutSourceNameKeepsItsKind() {
        func statusLine(_ name: String) -> String {
            let source = SourceStatus(name: name, state: .scanning, advertsPerSecond: 75)
            let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
            return render(model, size: ScreenSize(columns: 40, lines: 12)).line(11).trimmingTrailingSpaces()
        }
        #expect(statusLine("sim:demo/museum.yaml") == " sim:…/museum.yaml scanning · 75 adv/s")
        #expect(statusLine("sim:/usr/local/share/beacontop/demo/museum.yaml") == " sim:…/museum.yaml scanning · 75 adv/s")
        #expect(statusLine("/srv/captures/2026/hall-b/walk-1.btsnoop") == " …/walk-1.btsnoop scanning · 75 adv/s")
        // A name that is not a path gives way after the rate, then its kind stays.
        #expect(statusLine("serial:/dev/ttyACM0@1000000") == " serial:/dev/ttyACM0@1000000 scanning")
        #expect(statusLine("serial:/dev/serial/by-id/usb-nRF52-if00@1000000") == " serial:…sb-nRF52-if00@1000000 scanning")
        #expect(statusLine("unix:/run/beacontop/h4.sock") == " unix:…/h4.sock scanning · 75 adv/s")
        // A host cut from its front (its end tells hosts apart), a broker's URL from its end (its host).
        #expect(statusLine("tcp:gateway.hall-b.example.org:9000") == " tcp:….hall-b.example.org:9000 scanning")
        #expect(statusLine("mqtt://broker.hall-b.example.org:1884/venue") == " mqtt://broker.hall-b.example… scanning")
        #expect(statusLine("hci0:monitor") == " hci0:monitor scanning · 75 adv/s")
    }

    @Test("the detail pane at 40 and 50 columns: the id under the name, whole where it fits, and every value")
    func theDetailPaneKeepsTheIdAndEveryValue() throws {
        var row = try SecondaryScreenTests.vectorRow()
        row.exhibitName = "Harrison's H4 Chronometer (replica)"
        var state = SecondaryScreenTests.state(row)
        _ = state.handle(.enter)
        let fifty = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 50, lines: 15)))
        #expect(Array(fifty[1...5]) == [
            " Harrison's H4 Chronometer (replica)",
            " " + row.identity.description,
            " RSSI -67 dBm · distance 1.90 m (1.2-3.1 m, 80%)",
            " near · TX@1m -8 dBm · 4.5 pkt/s · seen 0.4s ago",
            " RSSI, dBm (9 samples)",
        ], "\(fifty)")
        // 40x12: the proximity, rate and age were left out; the charts give way to them.
        let forty = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(Array(forty[1...6]) == [
            " Harrison's H4 Chronometer (replica)",
            // Too long for the line: the middle of the UUID goes, major and minor stay.
            " 41424344-4546-4748-4940-4142434445…:1:2",
            " RSSI -67 dBm",
            " distance 1.90 m (1.2-3.1 m, 80%) · near",
            " TX@1m -8 dBm · 4.5 pkt/s",
            " seen 0.4s ago",
        ], "\(forty)")
        #expect(forty.allSatisfy { TerminalText.width($0, charset: .unicode) <= 40 })
        // The filters flow whole onto a second line rather than running off the edge.
        let filters = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 24)))
        #expect(filters.contains(" Filters:  kalman 1.90 m  median 2.30 m") && filters.contains("           raw ?"), "\(filters)")
    }

    @Test("the calibration wizard at 40x12 wraps its sentences: 'Esc cancels' ran off the screen")
    func theCalibrationWizardWrapsAtFortyColumns() throws {
        let row = try SecondaryScreenTests.vectorRow()
        let progress = CalibrationProgress(identity: row.identity, name: "Rosetta Stone (cast)", samplesCollected: 100, samplesNeeded: 100,
                                           measuredPower: -66.9, spread: 4.2)
        var state = SecondaryScreenTests.state(row, calibration: progress)
        _ = state.handle(.character("c"))
        _ = state.update(SecondaryScreenTests.state(row, calibration: progress).snapshot)
        let screen = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(Array(screen[1...10]) == [
            " Calibration: hold Rosetta Stone (cast)",
            " 1 m from the receiver",
            "  [████████████████████████] 100 samples",
            "  Measured power at 1 m: -66.9 dBm",
            "  spread: ±4.2 dB",
            "  The spread is large: keep the beacon",
            "  still, in line of sight.",
            "  Enter saves -67 dBm as the catalog",
            "  override; Esc cancels.",
            "",
        ], "\(screen)")
    }

    @Test("the calibration wizard cuts a long name, not its instruction: '1 m from the…' lost 'receiver' at 40 columns")
    func theCalibrationHeadingKeepsItsInstruction() throws {
        let row = try SecondaryScreenTests.vectorRow()
        func heading(_ name: String, columns: Int) -> [String] {
            let progress = CalibrationProgress(identity: row.identity, name: name, samplesCollected: 5, samplesNeeded: 20)
            var state = SecondaryScreenTests.state(row, calibration: progress)
            _ = state.handle(.character("c"))
            _ = state.update(SecondaryScreenTests.state(row, calibration: progress).snapshot)
            return Array(Self.lines(render(state.viewModel(), size: ScreenSize(columns: columns, lines: 12)))[1...2])
        }
        #expect(heading("Harrison's H4 Chronometer (replica)", columns: 40) == [
            " Calibration: hold Harrison's H4",
            " Chronometer (re… 1 m from the receiver",
        ])
        // A name of 10,000 characters (a hostile catalog) left no word of the instruction.
        let long = heading(String(repeating: "W", count: 10_000), columns: 60)
        #expect(long == [" Calibration: hold " + String(repeating: "W", count: 39) + "…", " 1 m from the receiver"], "\(long)")
        // One that fits is not cut.
        #expect(heading("Rosetta Stone (cast)", columns: 40) == [" Calibration: hold Rosetta Stone (cast)", " 1 m from the receiver"])
    }

    @Test("the survey's title is cut before its sample count: it ran into it ('The Little0 samples')")
    func theSurveyTitleStopsBeforeTheCount() {
        let plan = SurveyPlan(title: "The Little Museum of Clever Things", beacons: SurveyScreenTests.plan.beacons, walls: SurveyScreenTests.plan.walls)
        let state = SurveyState(session: SurveySession(plan: plan, created: 0, samples: []), catalog: nil)
        let title = { (columns: Int) in SurveyScreen.render(state, size: ScreenSize(columns: columns, lines: 12), rule: CoverageRule()).line(0).trimmingTrailingSpaces() }
        #expect(title(40) == " beacontop survey · The Lit…  0 samples")
        #expect(title(60) == " beacontop survey · The Little Museum of Clever…  0 samples")
        #expect(title(80) == " beacontop survey · The Little Museum of Clever Things                0 samples")
        #expect(title(30) == " beacontop survey   0 samples")
        // At the 20-column minimum the program's name ran into the count (`beacontop0 samples`), and
        // the shortest key line lost q's word (`Enter sample · q q`).
        #expect(title(20) == " survey   0 samples")
        let small = SurveyScreen.render(state, size: ScreenSize(columns: 20, lines: 8), rule: CoverageRule())
        #expect(small.line(7).trimmingTrailingSpaces() == " Enter · q quit")
        var help = state
        _ = help.handle(.character("h"))
        #expect(SurveyScreen.render(help, size: ScreenSize(columns: 20, lines: 8), rule: CoverageRule()).line(7).trimmingTrailingSpaces() == " h back · q quit")
    }

    @Test("no beacons heard: the message wraps, the source's path whole")
    func theEmptyTableWrapsItsMessage() {
        let source = SourceStatus(name: "/work/shared/data/captures/govee-h5075-h5074.btsnoop", state: .replaying(speed: 1))
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        let screen = Self.lines(render(model, size: ScreenSize(columns: 50, lines: 15)))
        #expect(Array(screen[2...4]) == [
            "  No beacons heard yet",
            "  (/work/shared/data/captures/govee-h5075-",
            "  h5074.btsnoop)",
        ], "\(screen)")
    }

    @Test("the title bar leaves two spaces before the count: 'The Litt… · events 10 beacons' read as one phrase")
    func theTitleBarKeepsTwoSpacesBeforeTheCount() throws {
        var snapshot = Museum.snapshot(rows: [])
        snapshot.title = "The Little Museum of Clever Things"
        var state = MonitorState(snapshot: snapshot)
        _ = state.handle(.character("e"))
        let line = render(state.viewModel(), size: ScreenSize(columns: 60, lines: 12)).line(0).trimmingTrailingSpaces()
        #expect(line == " beacontop · The Litt… · events  0 beacons · sort: distance")
    }
}

extension NarrowScreenTests {
    @Test("a venue beacon's detail: value columns leave whole below 68 columns; '-3' of '-3.5' was drawn at 50")
    func theVenueDetailLeavesValueColumnsWhole() {
        let placing = VenuePlacement.ScannerCell(scanner: "pi-booth-101", room: "booth-101", rssi: -61, level: -3.5, distance: 1.4, age: 0.4)
        let other = VenuePlacement.ScannerCell(scanner: "esp32-aisle-north-door", room: "aisle", rssi: -79, level: -18.25, distance: 9.5, age: 2.1)
        var row = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -61, accuracy: 1.4, proximity: .near)
        row.venue = VenuePlacement(room: "booth-101", scanner: "pi-booth-101", runnerUp: other, scanners: [placing, other])
        var state = MonitorState(snapshot: Museum.snapshot(rows: [row]))
        _ = state.handle(.enter)
        func lines(_ columns: Int) -> [String] {
            Array(Self.lines(render(state.viewModel(), size: ScreenSize(columns: columns, lines: 12)))[1...5])
        }
        let id = row.identity.description
        #expect(lines(80) == [
            " Rosetta Stone (cast) · in booth-101 · \(id)",
            " SCANNER            ROOM              RSSI  LEVEL dB  DIST m    AGE",
            ">pi-booth-101       booth-101          -61      -3.5    1.40   0.4s",
            " esp32-…-north-door aisle              -79     -18.3    9.50   2.1s",
            "",
        ], "\(lines(80))")
        // Below 68 columns the age leaves, then the distance; the names share what is left, cut in
        // the middle; the room goes with the name, the id on a line of its own.
        #expect(lines(50) == [
            " Rosetta Stone (cast) · in booth-101",
            " \(id)",
            " SCANNER     ROOM          RSSI  LEVEL dB  DIST m",
            ">pi-b…th-101 booth-101      -61      -3.5    1.40",
            " esp3…h-door aisle          -79     -18.3    9.50",
        ], "\(lines(50))")
        #expect(lines(40)[2...4] == [
            " SCANNER    ROOM         RSSI  LEVEL dB",
            ">pi-…th-101 booth-101     -61      -3.5",
            " esp…h-door aisle         -79     -18.3",
        ], "\(lines(40))")
    }
}

extension NarrowScreenTests {
    @Test("the health view's findings and the empty screens' messages wrap instead of running off the edge")
    func healthFindingsAndEmptyMessagesWrap() {
        // 'frame says +12 dBm at 1 m: not a received power, ranging uses the default' ended at
        // 'ranging' on 60 columns.
        let screen = Self.lines(HealthViewTests.screen(columns: 60))
        #expect(Array(screen[6...7]) == [
            "   frame says +12 dBm at 1 m: not a received power, ranging",
            "   uses the default",
        ], "\(screen)")
        let empty = MonitorViewModel(rows: [], source: SourceStatus(name: "hci0"), screen: .health)
        #expect(Array(Self.lines(render(empty, size: ScreenSize(columns: 40, lines: 12)))[2...3]) == [
            "  No beacon heard yet: health shows",
            "  once a beacon frame arrives.",
        ])
        // A venue's health view said the same beside a table of its beacons, as if health would come.
        var broker = SourceStatus(name: "mqtt://broker")
        broker.countsMessages = true
        let venue = MonitorViewModel(rows: [], source: broker, screen: .health)
        #expect(Array(Self.lines(render(venue, size: ScreenSize(columns: 40, lines: 12)))[2...6]) == [
            "  No health on a venue: its scanners",
            "  send readings, not the beacon frames",
            "  health is read from. Monitor a radio",
            "  (hci0) or a capture for it.",
            "",
        ])
        // The detail pane of a beacon gone from the table (a venue's, its readings expired).
        let gone = MonitorViewModel(rows: [], source: SourceStatus(name: "mqtt://broker"), screen: .detail)
        #expect(Array(Self.lines(render(gone, size: ScreenSize(columns: 40, lines: 12)))[2...3]) == [
            " No beacon selected. Esc returns to the",
            " table.",
        ])
        // One that was shown and has left the table is named: before, the pane showed the first
        // row's beacon in its place.
        let forgotten = MonitorViewModel(rows: [], goneBeacon: .iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2),
                                         source: SourceStatus(name: "hci0"), screen: .detail)
        #expect(Array(Self.lines(render(forgotten, size: ScreenSize(columns: 40, lines: 12)))[2...7]) == [
            " No longer heard:",
            " E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:",
            " 1:2 has left the table, silent too",
            " long (a minute on a radio). It shows",
            " here again if heard. Esc returns to",
            " the table.",
        ])
        let scanners = MonitorViewModel(rows: [], source: SourceStatus(name: "mqtt://broker"), screen: .scanners)
        #expect(Array(Self.lines(render(scanners, size: ScreenSize(columns: 40, lines: 12)))[2...4]) == [
            "  No scanners heard yet (the scanner",
            "  list is a venue's: monitor",
            "  mqtt://BROKER).",
        ])
    }
}

extension NarrowScreenTests {
    @Test("an uncatalogued nearest beacon's panel is its rule alone: three blank lines took rows from a 40x12 table")
    func aPanelWithNoDescriptionIsOneLine() throws {
        let rows = (1...9).map { minor in
            Museum.row(.iBeacon(uuid: HealthViewTests.uuid, major: 20597, minor: UInt16(minor)), nil, rssi: -50 - minor, accuracy: Double(minor), proximity: minor == 1 ? .immediate : .far)
        }
        let nearest = NearestExhibit(identity: rows[0].identity, name: "494E5445…:20597:1", description: "", proximity: .immediate)
        let state = MonitorState(snapshot: Museum.snapshot(rows: rows, nearest: nearest), screenSize: (40, 12))
        let screen = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(screen[2...9].allSatisfy { $0.contains(":20597:") }, "eight rows: \(screen)")
        #expect(screen[10].hasPrefix("── 494E5445…:20597:1 · immediate ─"), "\(screen)")
        // A click on the last row drawn selects it: the state counts the same rows.
        var clicked = state
        _ = clicked.handle(.click(row: 9, column: 5))
        #expect(clicked.viewModel().selectedIndex == 7)
    }
}

extension NarrowScreenTests {
    @Test("the panel's rule keeps the proximity and cuts the name: at 40 columns it read '(replica) · n'")
    func thePanelRuleKeepsTheProximity() {
        let row = Museum.row(Museum.rosetta, "Antikythera Mechanism (replica)", rssi: -60, accuracy: 1, proximity: .near)
        let nearest = NearestExhibit(identity: Museum.rosetta, name: "Antikythera Mechanism (replica)", description: Museum.rosettaText, proximity: .near)
        let state = MonitorState(snapshot: Museum.snapshot(rows: [row], nearest: nearest), screenSize: (40, 12))
        let screen = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(screen[7] == "── Antikythera Mechanism (rep… · near ──", "\(screen)")
        let ascii = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12), charset: .ascii))
        #expect(ascii[7] == "-- Antikythera Mechanism (rep~ | near --", "\(ascii)")
    }
}

extension NarrowScreenTests {
    @Test("the scanner list at 40 and 50 columns: the state whole, the names cut in the middle; it read 'onlin'")
    func theScannerListKeepsTheStateOnANarrowScreen() {
        let scanners = [
            ScannerState(name: "pi-booth-101-north-wall", room: "booth-101", alive: true, declaredOnline: true, secondsSinceHeard: 0.4, messages: 90,
                         messagesPerSecond: 3, clockOffset: -12.25, offset: -13.5, offsetSource: "catalog"),
            ScannerState(name: "pi-deaf", room: "hall", alive: true, declaredOnline: true, secondsSinceHeard: 9.5, messages: 4,
                         offset: 0, offsetSource: "none", radioLost: "the other end closed the connection"),
        ]
        let model = MonitorViewModel(rows: [], source: SourceStatus(name: "mqtt://broker"), screen: .scanners, scanners: scanners)
        func lines(_ columns: Int) -> [String] { Array(Self.lines(render(model, size: ScreenSize(columns: columns, lines: 10)))[1...3]) }
        #expect(lines(40) == [
            " SCANNER   ROOM      STATE    LAST",
            " pi-…-wall booth-101 online   0.4s",
            " pi-deaf   hall      no radio 9.5s",
        ], "\(lines(40))")
        #expect(lines(50) == [
            " SCANNER       ROOM           STATE    LAST  MSG/s",
            " pi-b…rth-wall booth-101      online   0.4s    3.0",
            " pi-deaf       hall           no radio 9.5s      -",
        ], "\(lines(50))")
    }
}

extension NarrowScreenTests {
    @Test("a finding in the detail pane ends in whole words and an ellipsis, not at the edge ('not a received power,' at 50)")
    func aDetailFindingIsCutWithAnEllipsis() throws {
        let transmitter = HealthViewTests.transmitters[3]
        let identity = try #require(transmitter.identities.first)
        let row = BeaconRowModel(identity: identity, rssi: -70, accuracy: 3, proximity: .far)
        let health = BeaconConditions(time: 60, transmitters: HealthViewTests.transmitters, byIdentity: [identity: BeaconCondition(health: transmitter)])
        let model = MonitorViewModel(rows: [row], selectedIndex: 0, source: SourceStatus(name: "hci0"), screen: .detail, health: health)
        let screen = Self.lines(render(model, size: ScreenSize(columns: 50, lines: 20)))
        let finding = try #require(screen.first { $0.hasPrefix("! ") }, "\(screen)")
        #expect(finding == "! frame says +12 dBm at 1 m: not a received…", "\(screen)")
    }
}

extension NarrowScreenTests {
    @Test("a venue's table at 40 and 50 columns: the room column narrows so distance and proximity stay whole ('RSSI DI', 'unkno')")
    func aVenueTableKeepsDistanceAndProximity() {
        let other = VenuePlacement.ScannerCell(scanner: "pi-aisle", room: "aisle", rssi: -79, level: -18.25, distance: 9.5, age: 2.1)
        var row = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -61, accuracy: 1.4, proximity: .unknown)
        row.venue = VenuePlacement(room: "booth-101", scanner: "pi-booth-101", runnerUp: other, scanners: [other])
        let state = MonitorState(snapshot: Museum.snapshot(rows: [row]))
        func lines(_ columns: Int) -> [String] {
            Array(Self.lines(render(state.viewModel(), size: ScreenSize(columns: columns, lines: 12)))[1...2])
        }
        #expect(lines(40) == [
            " NAME       ROOM   RSSI DIST m PROXIMITY",
            " Rosetta S… bo…101  -61   1.40 unknown",
        ], "\(lines(40))")
        #expect(lines(50) == [
            " NAME       ROOM (SCANNER)   RSSI DIST m PROXIMITY",
            " Rosetta S… booth-101 (pi-b…  -61   1.40 unknown",
        ], "\(lines(50))")
        // From 54 columns the room column is as it was.
        #expect(lines(54)[0] == " NAME       ROOM (SCANNER)       RSSI DIST m PROXIMITY")
    }

    @Test("the status line keeps a count whole by cutting the name below 8 columns: a venue recording's '12 malformed' read '12 malforme' at 40")
    func theStatusLineCutsTheNameBeforeACount() {
        var source = SourceStatus(name: "Tests/VenueRecordings/mixed.venue.ndjson", state: .replaying(speed: 1), advertsPerSecond: 9)
        source.malformedCount = 12
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        #expect(render(model, size: ScreenSize(columns: 40, lines: 12)).line(11).trimmingTrailingSpaces() == " …ndjson replaying at 1x · 12 malformed")
    }
}

extension NarrowScreenTests {
    @Test("the calibration wizard at 40x10 keeps its keys whole: 'override; Esc cancels.' fell under the status line")
    func theCalibrationWizardKeepsItsKeysOnTheSmallestScreen() throws {
        let row = try SecondaryScreenTests.vectorRow()
        let done = CalibrationProgress(identity: row.identity, name: "Harrison's H4 Chronometer (replica)", samplesCollected: 100,
                                       samplesNeeded: 100, measuredPower: -58.6, spread: 5.2)
        var state = SecondaryScreenTests.state(row, calibration: done)
        _ = state.handle(.character("c"))
        let lines = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 10)))
        #expect(Array(lines[1...8]) == [
            " Calibration: hold Harrison's H4",
            " Chronometer (re… 1 m from the receiver",
            "  [████████████████████████] 100 samples",
            "  Measured power at 1 m: -58.6 dBm",
            "  spread: ±5.2 dB",
            "  The spread is large: keep the beacon…",
            "  Enter saves -59 dBm as the catalog",
            "  override; Esc cancels.",
        ], "\(lines)")
        // A save that failed says why in three lines: the heading gives way to them.
        var failed = done
        failed.saveFailure = "not saved to hall.yaml: No space left on device"
        _ = state.update(SecondaryScreenTests.state(row, calibration: failed).snapshot)
        let failure = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 10)))
        #expect(failure[1] == " Calibration: hold Harrison's H4…" && failure[6].hasPrefix("  Calibration not saved"), "\(failure)")
        #expect(failure[8].hasSuffix("Esc cancels."), "\(failure)")
        // 40x12 as before: the heading's two lines and the whole warning.
        let twelve = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(twelve[2] == " Chronometer (re… 1 m from the receiver" && twelve[7] == "  still, in line of sight.", "\(twelve)")
    }
}

extension NarrowScreenTests {
    @Test("the calibration wizard's last step at 40 columns keeps 'Esc returns.' after a catalog's long path; it was cut off")
    func theSavedCalibrationKeepsItsKeysAfterALongPath() throws {
        let row = try SecondaryScreenTests.vectorRow()
        var saved = CalibrationProgress(identity: row.identity, name: "Foucault Pendulum", samplesCollected: 77, samplesNeeded: 20,
                                        measuredPower: -85.2, spread: 3.4)
        saved.savedTo = "/work/wt/surveytour/demo/museum.yaml"
        var state = SecondaryScreenTests.state(row, calibration: saved)
        _ = state.handle(.character("c"))
        let twelve = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: 12)))
        #expect(Array(twelve[7...10]) == [
            "  Saved -85 dBm as the catalog override",
            "  in",
            "  /work/wt/surveytour/demo/museum.yaml.",
            "  Esc returns.",
        ], "\(twelve)")
        // A path too long for the lines left: the sentence ends in an ellipsis, the keys stay whole.
        saved.savedTo = "/srv/museums/the-little-museum-of-clever-things/catalogs/east-wing/hall-b.yaml"
        _ = state.update(SecondaryScreenTests.state(row, calibration: saved).snapshot)
        for lines in [10, 12] {
            let screen = Self.lines(render(state.viewModel(), size: ScreenSize(columns: 40, lines: lines)))
            #expect(screen[lines - 2] == "  Esc returns." && screen.contains { $0.hasSuffix("…") }, "\(screen)")
        }
    }
}
