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
