import Monitor
import Testing
@testable import TerminalUI

/// What the status line and the table say when the monitor cannot keep up: packets dropped at the
/// inbox, beacons evicted past the tracking cap, and rates not yet known.
@Suite struct StatusCountsTests {
    @Test func droppedAndEvictedCountsAreWarningsThatStayOnANarrowLine() {
        let source = SourceStatus(name: "hci0:raw", state: .scanning, advertsPerSecond: 2750, malformedCount: 0,
                                  droppedPackets: 120, evictedBeacons: 3400)
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        let wide = render(model, size: ScreenSize(columns: 100, lines: 10))
        #expect(wide.line(9).trimmingTrailingSpaces() == " hci0:raw scanning · 2750 adv/s · 120 dropped · 3400 evicted                                 ? help")
        let codes = wide.roleCodes(9)
        let dropped = wide.line(9).range(of: "120 dropped")!
        let start = wide.line(9).distance(from: wide.line(9).startIndex, to: dropped.lowerBound)
        #expect(codes.dropFirst(start).prefix(11) == "wwwwwwwwwww")
        let narrow = render(model, size: ScreenSize(columns: 50, lines: 10)).line(9).trimmingTrailingSpaces()
        #expect(narrow == " hci0:raw scanning · 120 dropped · 3400 evicted")
    }

    @Test func aBrokerCountsMessagesAndAKeysNoticeIsAWarningThatStaysOnANarrowLine() {
        var source = SourceStatus(name: "mqtt://127.0.0.1:1883", state: .scanning, advertsPerSecond: 40)
        source.countsMessages = true
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        #expect(render(model, size: ScreenSize(columns: 100, lines: 10)).line(9).trimmingTrailingSpaces()
            == " mqtt://127.0.0.1:1883 scanning · 40 msg/s" + String(repeating: " ", count: 51) + "? help")
        source.notice = "seek back: not while recording (r stops it)"
        let noticed = render(MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel(), size: ScreenSize(columns: 80, lines: 10))
        #expect(noticed.line(9).trimmingTrailingSpaces() == " mqtt://127.0.0.1:1883 scanning · seek back: not while recording (r stops it)")
        let start = noticed.line(9).distance(from: noticed.line(9).startIndex, to: noticed.line(9).range(of: "seek back")!.lowerBound)
        #expect(noticed.roleCodes(9).dropFirst(start).prefix(5) == "wwwww")
    }

    /// `--read-only`: a laptop's view that feeds no backend says so beside the state, and keeps
    /// saying so on a narrow line, where the rate, the hint and the broker's name give way first.
    @Test func aReadOnlyViewSaysSoAndKeepsItOnANarrowLine() {
        var source = SourceStatus(name: "mqtt://broker.hall-b.example.org:1883", state: .scanning, advertsPerSecond: 40)
        source.countsMessages = true
        source.readOnly = true
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        #expect(render(model, size: ScreenSize(columns: 80, lines: 10)).line(9).trimmingTrailingSpaces()
            == " mqtt://broker.hall-b.example.org:1883 scanning · read-only · 40 msg/s   ? help")
        #expect(render(model, size: ScreenSize(columns: 40, lines: 10)).line(9).trimmingTrailingSpaces()
            == " mqtt://broker.ha… scanning · read-only")
    }

    /// A key's 4 s notice gives way before the recording indicator: placed whole in front of it,
    /// it cut `● REC beacontop-20261125-104512.btsnoop` to `● REC beacontop-20261125-10` at 80 columns.
    @Test func aKeysNoticeGivesWayToTheRecordingIndicator() {
        func line(_ source: SourceStatus, _ columns: Int) -> (text: String, roles: String) {
            let screen = render(MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel(), size: ScreenSize(columns: columns, lines: 10))
            return (screen.line(9).trimmingTrailingSpaces(), screen.roleCodes(9))
        }
        var live = SourceStatus(name: "hci0", state: .scanning, advertsPerSecond: 31, malformedCount: 0,
                                recordingFile: "beacontop-20261125-104512.btsnoop")
        live.notice = "speed works on replays (a file)"
        let cut = line(live, 80)
        #expect(cut.text == " hci0 scanning · speed works on repl… · ● REC beacontop-20261125-104512.btsnoop")
        #expect(cut.roles.dropFirst(17).prefix(20) == String(repeating: "w", count: 20))
        // Where the line holds it, the notice is whole.
        #expect(line(live, 120).text == " hci0 scanning · speed works on replays (a file) · 31 adv/s · ● REC beacontop-20261125-104512.btsnoop            ? help")
        // A replay's state and recording fill 80 columns: the file name gives way first (as for
        // every other segment), then the notice's end; the recording's name stays whole.
        var replay = SourceStatus(name: "museum.btsnoop", state: .replaying(speed: 100), advertsPerSecond: 31, malformedCount: 0,
                                  recordingFile: "beacontop-20261125-104512.btsnoop", replayPosition: 83, replayDuration: 600)
        replay.notice = "speed: already the fastest, 100x"
        #expect(line(replay, 80).text == " …p replaying at 100x · speed: alrea… · ● REC beacontop-20261125-104512.btsnoop")
        // At 40 columns fewer than 8 columns of it would show: it is left out (the event log has it).
        var short = SourceStatus(name: "hci0", state: .scanning, advertsPerSecond: 31, malformedCount: 0, recordingFile: "out.btsnoop")
        short.notice = "speed works on replays (a file)"
        #expect(line(short, 40).text == " hci0 scanning · ● REC out.btsnoop")
    }

    @Test("a refused restart says when it is retried; the delay gives way on a narrow line, the state does not")
    func aRefusedRestartSaysWhenItIsRetried() {
        let source = SourceStatus(name: "tcp:127.0.0.1:9000", state: .notScanning(reason: "scanning not restarted: ...", retryIn: 8))
        let model = MonitorState(snapshot: Museum.snapshot(rows: [], source: source)).viewModel()
        let wide = render(model, size: ScreenSize(columns: 100, lines: 10))
        #expect(wide.line(9).trimmingTrailingSpaces()
            == " tcp:127.0.0.1:9000 not scanning since the reconnect (e: why) · retrying in 8 s · 0 adv/s    ? help")
        let start = wide.line(9).distance(from: wide.line(9).startIndex, to: wide.line(9).range(of: "retrying")!.lowerBound)
        #expect(wide.roleCodes(9).dropFirst(start).prefix(8) == "wwwwwwww")
        let narrow = render(model, size: ScreenSize(columns: 64, lines: 10)).line(9).trimmingTrailingSpaces()
        #expect(narrow == " tcp:127.0.0.1:9000 not scanning since the reconnect (e: why)")
    }

    @Test func aRateNotYetKnownIsADash() {
        var row = Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -60, accuracy: 1, proximity: .near)
        row.packetsPerSecond = nil
        let model = MonitorState(snapshot: Museum.snapshot(rows: [row]), screenSize: (100, 10)).viewModel()
        let line = render(model, size: ScreenSize(columns: 100, lines: 10)).line(2)
        #expect(line.contains("  -  "), "PKT/s column: \(line)")
        #expect(!line.contains("0.0"))
    }
}
