import BeaconFormats
import Monitor
import Testing
@testable import TerminalUI

/// Scripted event sequences rendered to whole screens, asserted as text plus style roles
/// (one `StyleRole.code` letter per cell, `.` plain shown as space).
@Suite struct ScreenScenarioTests {
    static func roles(_ buffer: ScreenBuffer) -> String {
        (0..<buffer.height).map { String(buffer.roleCodes($0).map { $0 == "." ? " " : $0 }).trimmingTrailingSpaces() }
            .joined(separator: "\n")
    }

    static func rosetta(_ rssi: Int, _ accuracy: Double, _ proximity: ProximityClass, history: [Int]) -> BeaconRowModel {
        Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: rssi, accuracy: accuracy, proximity: proximity, history: history)
    }

    static let chessmen = Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -80, accuracy: 6.0, proximity: .far, history: [-80, -81, -80])

    @Test func aBeaconApproachingRisesToTheTopAndOpensThePanel() {
        var state = MonitorState(snapshot: Museum.snapshot(rows: []), screenSize: (60, 12))
        let size = ScreenSize(columns: 60, lines: 12)
        var history: [Int] = []
        var screens: [ScreenBuffer] = []
        for (rssi, accuracy, proximity) in [(-86, 9.5, ProximityClass.far), (-72, 2.4, .near), (-55, 0.4, .immediate)] {
            history.append(rssi)
            // Far away the chessmen are nearest; then the engine's evidence hands over to Rosetta.
            let nearest = proximity == .far
                ? NearestExhibit(identity: Museum.chessmen, name: "Lewis Chessmen", description: "", proximity: .far)
                : NearestExhibit(identity: Museum.rosetta, name: "Rosetta Stone (cast)", description: Museum.rosettaText, proximity: proximity)
            _ = state.update(Museum.snapshot(rows: [Self.rosetta(rssi, accuracy, proximity, history: history), Self.chessmen], nearest: nearest))
            screens.append(render(state.viewModel(), size: size))
        }
        // Far away: the chessmen are nearest and on top, no panel (far), Rosetta below.
        #expect(screens[0].text == """
             beacontop · The Little Museum   2 beacons · sort: distance
             NAME           RSSI HISTORY    DIST m PROXIMITY PKT/s   AGE
            >Lewis Chessmen  -80 ▅▄▅          6.00 far         9.8  0.2s
             Rosetta Stone…  -86 ▅            9.50 far         9.8  0.2s







             hci0 scanning · 31 adv/s                            ? help
            """)
        // Rosetta's row is a plain one now: one history bar, its far proximity, no nearest role.
        #expect(Self.roles(screens[0]).split(separator: "\n", omittingEmptySubsequences: false)[3]
            == "                     c                 fff")
        // Immediate: Rosetta leads, and the panel shows its name and description.
        #expect(screens[2].text == """
             beacontop · The Little Museum   2 beacons · sort: distance
             NAME           RSSI HISTORY    DIST m PROXIMITY PKT/s   AGE
            >Rosetta Stone…  -55 ▁▄█          0.40 immediate   9.8  0.2s
             Lewis Chessmen  -80 ▅▄▅          6.00 far         9.8  0.2s



            ── Rosetta Stone (cast) · immediate ────────────────────────
             A plaster cast of the stele whose three scripts let
             Champollion read hieroglyphs.

             hci0 scanning · 31 adv/s                            ? help
            """)
        #expect(Self.roles(screens[2]) == """
            HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH
            CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC
            SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS
                                 ccc               fff



            NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN



            TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT
            """)
    }

    @Test func twoExhibitsCloseTogetherSwapTheMarkerWhileTheSelectionStays() {
        let rosetta = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -61, accuracy: 1.10, proximity: .near, history: [-62, -61])
        let chessmen = Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -60, accuracy: 1.05, proximity: .near, history: [-61, -60])
        let nearChessmen = NearestExhibit(identity: Museum.chessmen, name: "Lewis Chessmen",
                                          description: "Walrus-ivory chess pieces found on the Isle of Lewis.", proximity: .near)
        var state = MonitorState(snapshot: Museum.snapshot(rows: [rosetta, chessmen], nearest: nearChessmen), screenSize: (40, 10))
        _ = state.handle(.down)
        let size = ScreenSize(columns: 40, lines: 10)
        let first = render(state.viewModel(), size: size)
        #expect(first.text == """
             beacontop   2 beacons · sort: distance
             NAME        RSSI DIST m PROXIMITY   AGE
            >Lewis Ches…  -60   1.05 near       0.2s
             Rosetta St…  -61   1.10 near       0.2s

            ── Lewis Chessmen · near ───────────────
             Walrus-ivory chess pieces found on the
             Isle of Lewis.

             hci0 scanning · 31 adv/s        ? help
            """)
        #expect(Self.roles(first) == """
            HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH
            CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC
            NNNNNNNNNNNNNNNNNNNNNNNNNnnnnNNNNNNNNNNN
            SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS

            NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN



            TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT
            """)
        // Rosetta edges ahead by 10 cm: it moves to the top, takes the marker and the panel, and the
        // selection the user made stays on it (selection follows identity, not the line).
        var closer = rosetta
        closer.accuracy = 0.95
        closer.rssi = -59
        let nearRosetta = NearestExhibit(identity: Museum.rosetta, name: "Rosetta Stone (cast)", description: Museum.rosettaText, proximity: .near)
        _ = state.update(Museum.snapshot(rows: [closer, chessmen], nearest: nearRosetta))
        let second = render(state.viewModel(), size: size)
        #expect(second.text == """
             beacontop   2 beacons · sort: distance
             NAME        RSSI DIST m PROXIMITY   AGE
            >Rosetta St…  -59   0.95 near       0.2s
             Lewis Ches…  -60   1.05 near       0.2s

            ── Rosetta Stone (cast) · near ─────────
             A plaster cast of the stele whose
             three scripts let Champollion read
             hieroglyphs.
             hci0 scanning · 31 adv/s        ? help
            """)
        #expect(Self.roles(second).split(separator: "\n", omittingEmptySubsequences: false)[2...3] == [
            "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS",
            "                         nnnn",
        ])
    }

    @Test func aBeaconGoingStaleDims() {
        let rosetta = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -61, accuracy: 1.10, proximity: .near, history: [-62, -61])
        var helmet = Museum.row(Museum.helmet, "Sutton Hoo Helmet", rssi: -88, accuracy: 12, proximity: .far, age: 4)
        var state = MonitorState(snapshot: Museum.snapshot(rows: [rosetta, helmet]), screenSize: (50, 10))
        let size = ScreenSize(columns: 50, lines: 10)
        let before = render(state.viewModel(), size: size)
        #expect(before.line(3).trimmingTrailingSpaces() == " Sutton Ho…  -88              12.0 far        4.0s")
        #expect(before.roleCodes(3) == String(repeating: ".", count: 35) + "fff" + String(repeating: ".", count: 12))
        helmet.secondsSinceSeen = 21
        helmet.isStale = true
        helmet.proximity = .unknown
        #expect(state.update(Museum.snapshot(rows: [rosetta, helmet])) == .redraw)
        let after = render(state.viewModel(), size: size)
        #expect(after.text == """
             beacontop · The Lit…  2 beacons · sort: distance
             NAME       RSSI HISTORY    DIST m PROXIMITY   AGE
             Rosetta S…  -61 ▄▅           1.10 near       0.2s
             Sutton Ho…  -88              12.0 unknown     21s





             hci0 scanning · 31 adv/s                  ? help
            """)
        #expect(Self.roles(after) == """
            HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH
            CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC
            SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS
            ssssssssssssssssssssssssssssssssssssssssssssssssss





            TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT
            """)
    }

    @Test func aPausedReplayShowsPositionMalformedAndRecording() {
        var source = SourceStatus(name: "museum.btsnoop", state: .paused(speed: 1), advertsPerSecond: 31, malformedCount: 2,
                                  recordingFile: "out.btsnoop", replayPosition: 83, replayDuration: 600)
        var state = MonitorState(snapshot: Museum.snapshot(rows: [], source: source), screenSize: (100, 10))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 10))
        #expect(screen.text == """
             beacontop · The Little Museum                          0 beacons · sort: distance · filter: kalman
             NAME                             RSSI HISTORY          DIST m RANGE     PROXIMITY TX@1m PKT/s   AGE
              No beacons heard yet (museum.btsnoop)






             museum.btsnoop paused · 01:23/10:00 · 31 adv/s · 2 malformed · ● REC out.btsnoop            ? help
            """)
        #expect(screen.roleCodes(9) == "TTTTTTTTTTTTTTTTwwwwwwTTTTTTTTTTTTTTTTTTTTTTTTTTTTwwwwwwwwwwwTTTRRRRRRRRRRRRRRRRRTTTTTTTTTTTTTTTTTTT")
        source.state = .replaying(speed: 4)
        _ = state.update(Museum.snapshot(rows: [], source: source))
        let resumed = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 10))
        #expect(resumed.line(9).hasPrefix(" museum.btsnoop replaying at 4x · 01:23/10:00 · 31 adv/s"))
        source.state = .replaying(speed: .infinity)
        _ = state.update(Museum.snapshot(rows: [], source: source))
        let flatOut = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 10))
        #expect(flatOut.line(9).hasPrefix(" museum.btsnoop replaying at max · 01:23/10:00"))
    }

    @Test func smallTerminalsDropColumnsInOrderThenShowAMessage() {
        let headers = [40, 50, 60, 70, 80, 100].map { width in
            TableLayout(width: width).columns.map(\.column.heading).joined(separator: " ")
        }
        #expect(headers == [
            "NAME RSSI DIST m PROXIMITY AGE",
            "NAME RSSI HISTORY DIST m PROXIMITY AGE",
            "NAME RSSI HISTORY DIST m PROXIMITY PKT/s AGE",
            "NAME RSSI HISTORY DIST m RANGE PROXIMITY PKT/s AGE",
            "NAME RSSI HISTORY DIST m RANGE PROXIMITY TX@1m PKT/s AGE",
            "NAME RSSI HISTORY DIST m RANGE PROXIMITY TX@1m PKT/s AGE",
        ])
        for width in [40, 41, 57, 80, 133, 200] {
            let last = TableLayout(width: width).columns.last!
            #expect(last.x + last.width <= width, "columns overflow at width \(width)")
        }
        let model = MonitorState(snapshot: Museum.snapshot(rows: [Self.chessmen])).viewModel()
        let tiny = render(model, size: ScreenSize(columns: 39, lines: 9))
        #expect(tiny.text == """



              Terminal too small: 39x9. beacontop
                needs at least 40x10. q quits.




            """)
        #expect(tiny.roleCodes(3).filter { $0 == "W" }.count == 35)
        let short = render(model, size: ScreenSize(columns: 120, lines: 9))
        #expect(short.text.contains("Terminal too small: 120x9"))
        // Degenerate sizes never trap.
        for (columns, lines) in [(0, 0), (1, 1), (5, 0), (0, 5), (40, 10)] {
            let buffer = render(model, size: ScreenSize(columns: columns, lines: lines))
            #expect(buffer.cells.count == columns * lines)
        }
    }
}

extension ScreenScenarioTests {
    @Test func unnamedBeaconsOfOneUUIDStayApartInANarrowNameColumn() throws {
        // A venue's badges: one UUID, no catalog names. At 40 columns (and in a venue's table at
        // 60, where ROOM takes the room) the name column is 10 wide; cutting the short id's end
        // made every row `E2C56DB5……`.
        let rows = [Museum.id(1), .iBeacon(uuid: Museum.uuid, major: 100, minor: 2), .iBeacon(uuid: Museum.uuid, major: 65535, minor: 65535)].map {
            Museum.row($0, nil, rssi: -60, accuracy: 1.2, proximity: .near)
        }
        let screen = render(MonitorState(snapshot: Museum.snapshot(rows: rows)).viewModel(), size: ScreenSize(columns: 40, lines: 10))
        let column = try #require(TableLayout(width: 40).columns.first { $0.column == .name })
        #expect(column.width < 13, "the short ids must not fit for this test to mean anything")
        let names = (2...4).map { String(screen.line($0).dropFirst(column.x).prefix(column.width)).trimmingCharacters(in: .whitespaces) }
        #expect(Set(names).count == 3, "\(screen.text)")
        #expect(names.contains { $0.hasSuffix("…:1:1") } && names.contains { $0.hasSuffix("…:100:2") } && names.contains { $0.hasPrefix("…") && $0.hasSuffix("5:65535") },
                "\(names)")
        let wide = render(MonitorState(snapshot: Museum.snapshot(rows: rows)).viewModel(), size: ScreenSize(columns: 100, lines: 10))
        #expect(wide.text.contains("E2C56DB5…:100:2") && wide.text.contains("E2C56DB5…:65535:65535"), "whole where it fits: \(wide.text)")
        #expect(BeaconIdentity.eddystoneURL("https://github.com/citruz").shortDescription(fitting: 10) == nil)
    }

    @Test func aNarrowStatusLineKeepsStateMalformedAndRecording() {
        let source = SourceStatus(name: "museum.btsnoop", state: .paused(speed: 1), advertsPerSecond: 31, malformedCount: 2,
                                  recordingFile: "out.btsnoop", replayPosition: 83, replayDuration: 600)
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        let lines = [100, 80, 60].map { render(model, size: ScreenSize(columns: $0, lines: 10)).line(9).trimmingTrailingSpaces() }
        #expect(lines == [
            " museum.btsnoop paused · 01:23/10:00 · 31 adv/s · 2 malformed · ● REC out.btsnoop            ? help",
            " museum.btsnoop paused · 01:23/10:00 · 2 malformed · ● REC out.btsnoop   ? help",
            " museum.btsnoop paused · 2 malformed · ● REC out.btsnoop",
        ])
        let screen = render(model, size: ScreenSize(columns: 60, lines: 10))
        #expect(screen.roleCodes(9).hasPrefix("TTTTTTTTTTTTTTTTwwwwwwTTTwwwwwwwwwwwTTTRRRRRRRRRRRRRRRRR"))
    }

    /// Paused at another speed than 1x, the state says the speed the replay resumes at, on 40
    /// columns too (it said only `paused` once the `+` key's 4 s notice was gone).
    @Test func aPausedReplaySaysTheSpeedItResumesAt() {
        let rows = [100, 40].map { columns in
            [2.0, 0.25, .infinity, 1].map { speed in
                let source = SourceStatus(name: "museum.btsnoop", state: .paused(speed: speed), advertsPerSecond: 31, malformedCount: 0,
                                          replayPosition: 83, replayDuration: 600)
                let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
                return render(model, size: ScreenSize(columns: columns, lines: 10)).line(9).trimmingTrailingSpaces()
            }
        }
        #expect(rows == [[
            " museum.btsnoop paused · 2x · 01:23/10:00 · 31 adv/s                                         ? help",
            " museum.btsnoop paused · 0.25x · 01:23/10:00 · 31 adv/s                                      ? help",
            " museum.btsnoop paused · max · 01:23/10:00 · 31 adv/s                                        ? help",
            " museum.btsnoop paused · 01:23/10:00 · 31 adv/s                                              ? help",
        ], [
            // The position gives way before the speed (the state is what must not be missed).
            " museum.btsnoop paused · 2x      ? help",
            " museum.btsnoop paused · 0.25x   ? help",
            " museum.btsnoop paused · max     ? help",
            " museum.btsnoop paused · 01:23/10:00",
        ]])
    }

    /// A long capture path gives way from the front, its directories before the rate, the help hint
    /// or the position, so the state and the recording indicator stay whole; nothing is laid out in
    /// the bottom-right cell, which ncurses cannot draw.
    @Test func aLongSourcePathGivesWayToTheRecordingIndicator() {
        let path = "/check/work/shared/data/captures/govee-h5100.btsnoop"
        let source = SourceStatus(name: path, state: .replaying(speed: 50), advertsPerSecond: 7, malformedCount: 0,
                                  recordingFile: "first.btsnoop", replayPosition: 85, replayDuration: nil)
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        let lines = [120, 110, 80, 70].map { render(model, size: ScreenSize(columns: $0, lines: 10)).line(9) }
        #expect(lines.map { $0.trimmingTrailingSpaces() } == [
            " /check/work/shared/data/captures/govee-h5100.btsnoop replaying at 50x · 01:25 · 7 adv/s · ● REC first.btsnoop   ? help",
            " …/shared/data/captures/govee-h5100.btsnoop replaying at 50x · 01:25 · 7 adv/s · ● REC first.btsnoop   ? help",
            " …/govee-h5100.btsnoop replaying at 50x · 01:25 · 7 adv/s · ● REC first.btsnoop",
            " …/govee-h5100.btsnoop replaying at 50x · 01:25 · ● REC first.btsnoop",
        ])
        // Without a recording, 80 columns hold the file name, the position, the rate and the hint.
        let plain = SourceStatus(name: path, state: .replaying(speed: 1), advertsPerSecond: 7, malformedCount: 0,
                                 replayPosition: 85, replayDuration: 220)
        let plainLine = render(MonitorState(snapshot: Museum.snapshot(rows: [], source: plain)).viewModel(), size: ScreenSize(columns: 80, lines: 10)).line(9)
        #expect(plainLine.trimmingTrailingSpaces() == " …/captures/govee-h5100.btsnoop replaying at 1x · 01:25/03:40 · 7 adv/s  ? help", "\(plainLine)")
        for line in lines { #expect(line.last == " ", "the bottom-right cell holds text: \(line)") }
        // In an ASCII locale the cut is marked `~`, as every other cut is.
        let ascii = render(model, size: ScreenSize(columns: 80, lines: 10), charset: .ascii).line(9)
        #expect(ascii.hasPrefix(" ~/govee-h5100.btsnoop replaying at 50x"), "\(ascii)")
    }
}

extension ScreenScenarioTests {
    @Test("at 120 columns a name longer than 32 takes the columns left over, then the sparkline's beyond 20: the demo cut 'Harrison's H4 Chronometer (repl…'")
    func aLongNameTakesColumnsFromAWideSparkline() throws {
        let name = "Harrison's H4 Chronometer (replica)"
        func widths(_ width: Int, longest: Int) -> [TableColumn: Int] {
            Dictionary(uniqueKeysWithValues: TableLayout(width: width, longestName: longest).columns.map { ($0.column, $0.width) })
        }
        #expect(widths(120, longest: 0)[.name] == 32 && widths(120, longest: 0)[.history] == 30)
        // 6 columns were left over at the right edge, unused.
        #expect(widths(120, longest: name.count)[.name] == 35 && widths(120, longest: name.count)[.history] == 30)
        // Then the sparkline's beyond 20: a longer name is cut there; at 100 columns (16 of sparkline) as before.
        #expect(widths(120, longest: 60)[.name] == 48 && widths(120, longest: 60)[.history] == 20)
        #expect(widths(100, longest: name.count) == widths(100, longest: 0))
        #expect(widths(140, longest: 60)[.name] == 60 && widths(140, longest: 60)[.history] == 28)
        for width in [100, 120, 140, 200] {
            let last = try #require(TableLayout(width: width, longestName: 80).columns.last)
            #expect(last.x + last.width <= width, "columns overflow at width \(width)")
        }
        let rows = [Museum.row(Museum.rosetta, name, rssi: -60, accuracy: 1, proximity: .near), Self.chessmen]
        let screen = render(MonitorState(snapshot: Museum.snapshot(rows: rows)).viewModel(), size: ScreenSize(columns: 120, lines: 10))
        #expect(screen.text.contains(" " + name + " "), "\(screen.text)")
    }
}
