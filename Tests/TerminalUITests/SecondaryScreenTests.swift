import BeaconFormats
import Foundation
import HCI
import Monitor
import TestFixtures
import Testing
@testable import TerminalUI

/// The detail pane, event log, help and calibration screens, rendered from real decode vectors.
@Suite struct SecondaryScreenTests {
    /// beacontools' iBeacon vector from `vectors.json`, decoded by the shared decoder.
    static func vectorRow() throws -> BeaconRowModel {
        let data = try Data(contentsOf: SharedData.vectorsFile)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let vectors = try #require(json["vectors"] as? [[String: Any]])
        let vector = try #require(vectors.first { $0["id"] as? String == "beacontools_ibeacon" })
        let raw = SharedData.bytes(hex: try #require(vector["ad_hex"] as? String))
        let frame = try #require(BeaconDecoder.decode(raw[...]))
        guard case .iBeacon(let iBeacon) = frame else { throw VectorError.notIBeacon }
        return BeaconRowModel(
            identity: BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0xC0FFEE)), rssi: -67,
            rssiHistory: [-70, -69, -68, -66, -67, -65, -64, -66, -67], accuracy: 1.9, accuracyRange: 1.2...3.1,
            accuracyHistory: [3.0, 2.8, 2.5, 2.2, 2.1, 1.9, 1.8, 1.9, 1.9], proximity: .near,
            measuredPower: Int(iBeacon.measuredPower), packetsPerSecond: 4.5, secondsSinceSeen: 0.4, lastRawFrame: raw,
            filterEstimates: [FilterEstimate(filterName: "kalman", accuracy: 1.9), FilterEstimate(filterName: "median", accuracy: 2.3),
                              FilterEstimate(filterName: "raw", accuracy: nil)])
    }

    enum VectorError: Error { case notIBeacon }

    static func state(_ row: BeaconRowModel, events: [MonitorEvent] = [], calibration: CalibrationProgress? = nil) -> MonitorState {
        MonitorState(snapshot: MonitorSnapshot(
            rows: [row], source: SourceStatus(name: "hci0"), events: events,
            filterNames: ["kalman", "median", "raw"], activeFilter: "kalman", calibration: calibration))
    }

    @Test func theScannerListFitsEightyColumnsAndDropsWholeColumnsBelow() {
        let scanners = [
            ScannerState(name: "pi-booth-101", room: "booth-101", alive: true, declaredOnline: true, secondsSinceHeard: 0.4, messages: 90,
                         messagesPerSecond: 3, clockOffset: -12.25, offset: -13.5, offsetSource: "catalog"),
            ScannerState(name: "esp-aisle", room: "aisle", alive: false, declaredOnline: false, secondsSinceHeard: 30, messages: 9,
                         offset: 2.25, offsetSource: "learnt"),
            ScannerState(name: "pi-deaf", room: "hall", alive: true, declaredOnline: true, secondsSinceHeard: 9.5, messages: 4,
                         offset: 0, offsetSource: "none", radioLost: "the other end closed the connection"),
        ]
        let model = MonitorViewModel(rows: [], source: SourceStatus(name: "mqtt://broker"), screen: .scanners, scanners: scanners)
        let wide = render(model, size: ScreenSize(columns: 80, lines: 10))
        #expect(wide.line(1).trimmingTrailingSpaces().hasSuffix("CLOCK s       OFFSET dB"), "\(wide.text)")
        #expect(wide.line(2).trimmingTrailingSpaces().hasSuffix("-12.25 -13.5 (catalog)"), "the offset's source whole: \(wide.text)")
        #expect(wide.line(3).trimmingTrailingSpaces().hasSuffix(" (learnt)"), "\(wide.text)")
        // Online but its telemetry says the radio is lost: the state word leaves the age whole.
        #expect(wide.line(4).contains("hall             no radio 9.5s"), "\(wide.text)")
        let narrow = render(model, size: ScreenSize(columns: 60, lines: 10))
        #expect(narrow.line(1).trimmingTrailingSpaces().hasSuffix("LAST  MSG/s"), "no cut heading: \(narrow.text)")
        #expect(narrow.line(2).trimmingTrailingSpaces().hasSuffix("0.4s    3.0"), "no cut value: \(narrow.text)")
    }

    @Test func detailPaneShowsChartsRawFrameAndEveryFilter() throws {
        var state = Self.state(try Self.vectorRow())
        _ = state.handle(.enter)
        #expect(state.screen == .detail)
        let screen = render(state.viewModel(), size: ScreenSize(columns: 60, lines: 16))
        #expect(screen.text == """
             beacontop · detail               1 beacon · sort: distance
             41424344-4546-4748-4940-414243444546:1:2 · ibeacon
             RSSI -67 dBm · distance 1.90 m (1.2-3.1 m, 80%) · near
             TX@1m -8 dBm · 4.5 pkt/s · seen 0.4s ago
             RSSI, dBm (9 samples)
               -30
                   ▂▃▃▄▃▄▄▄▃
              -100 █████████
             distance, m (9 samples)
                 3 █▇▅▄▃▂▂▂▂
                 0 █████████
             Last raw frame (30 bytes)
             02 01 06 1a ff 4c 00 02 15 41 42 43 44 45 46 47 48 49 40
             41 42 43 44 45 46 00 01 00 02 f8
             Filters:  kalman 1.90 m  median 2.30 m  raw ?
             hci0 scanning · 0 adv/s                             ? help
            """)
        // The filter in use stands out among the estimates.
        #expect(screen.roleCodes(14).hasPrefix("CCCCCCCCCNNNNNNNNNNNNNNN..."))
        _ = state.handle(.escape)
        #expect(state.screen == .table)
    }

    @Test("the detail summary flows onto a second line rather than losing its packet rate and age at 80 columns")
    func detailSummaryKeepsEveryValueAtEightyColumns() throws {
        var state = Self.state(try Self.vectorRow())
        _ = state.handle(.enter)
        let screen = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 24))
        #expect(screen.line(2).trimmingTrailingSpaces() == " RSSI -67 dBm · distance 1.90 m (1.2-3.1 m, 80%) · near · TX@1m -8 dBm", "\(screen.text)")
        #expect(screen.line(3).trimmingTrailingSpaces() == " 4.5 pkt/s · seen 0.4s ago", "\(screen.text)")
        #expect(screen.line(4).hasPrefix(" RSSI, dBm (9 samples)"))
    }

    @Test func asciiLocaleDrawsOnlyASCII() throws {
        var state = Self.state(try Self.vectorRow())
        let table = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 12), charset: .ascii)
        _ = state.handle(.enter)
        let detail = render(state.viewModel(), size: ScreenSize(columns: 60, lines: 16), charset: .ascii)
        for screen in [table, detail] {
            #expect(screen.text.unicodeScalars.allSatisfy { $0.isASCII })
        }
        #expect(table.line(2).contains(" 41424344~:1:2 "))
        #expect(table.line(2).contains(" ,,:--==-- "))
        #expect(detail.line(6) == "       ...+.+++.                                            ")
        #expect(detail.line(7).hasPrefix("  -100 #########"))
    }

    @Test func eventLogShowsTheNewestThatFit() throws {
        let events = (0..<12).map { MonitorEvent(time: Double($0) * 30, kind: $0 % 2 == 0 ? .enter : .exit, message: "exhibit \($0)") }
            + [MonitorEvent(time: 400, kind: .warning, message: "hci0 lost: device removed")]
        var state = Self.state(try Self.vectorRow(), events: events)
        _ = state.handle(.character("e"))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 60, lines: 10))
        #expect(screen.text == """
             beacontop · events               1 beacon · sort: distance
              TIME KIND     WHAT                            Events (13)
             ↑ 7 earlier lines (k/j, PgUp)
             03:30 exit     exhibit 7
             04:00 enter    exhibit 8
             04:30 exit     exhibit 9
             05:00 enter    exhibit 10
             05:30 exit     exhibit 11
             06:40 warning  hci0 lost: device removed
             hci0 scanning · 0 adv/s                             ? help
            """)
        #expect(ScreenScenarioTests.roles(screen).split(separator: "\n", omittingEmptySubsequences: false)[6...8] == [
            " mmmmm iiiii", " mmmmm ffff", " mmmmm WWWWWWW",
        ])
        _ = state.handle(.character("e"))
        #expect(state.screen == .table)
    }

    @Test func eventLogWrapsALongMessageUnderWhat() throws {
        let reason = "tcp:127.0.0.1:9000: scanning not restarted: LE Set Extended Scan Enable failed: Command Disallowed (0x0C)"
        let events = (0..<6).map { MonitorEvent(time: Double($0) * 10, kind: .info, message: "nearest: exhibit \($0)") }
            + [MonitorEvent(time: 70, kind: .warning, message: reason)]
        var state = Self.state(try Self.vectorRow(), events: events)
        _ = state.handle(.character("e"))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 10))
        // It was cut at the screen's edge: '... scanning not restarted: LE'. The newest events,
        // the earlier ones above (ScrolledScreenTests scrolls back to them).
        #expect(Array((2...8).map { screen.line($0).trimmingTrailingSpaces() }) == [
            " ↑ 2 earlier lines (k/j, PgUp)",
            " 00:20 info     nearest: exhibit 2",
            " 00:30 info     nearest: exhibit 3",
            " 00:40 info     nearest: exhibit 4",
            " 00:50 info     nearest: exhibit 5",
            " 01:10 warning  tcp:127.0.0.1:9000: scanning not restarted: LE Set Extended Scan",
            "                Enable failed: Command Disallowed (0x0C)",
        ])
    }

    @Test func helpIsDrawnFromTheKeyTable() throws {
        var state = Self.state(try Self.vectorRow())
        _ = state.handle(.character("?"))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 30))
        let lines = (0..<screen.height).map(screen.line)
        for binding in KeyMap.standard.bindings {
            let keys = binding.keys.map(\.label).joined(separator: " ")
            #expect(lines.contains { $0.hasPrefix(" " + keys.padding(to: 11) + binding.summary) }, "\(binding.summary)")
        }
        // A different table draws a different help screen: nothing is hard-coded in the view.
        let custom = KeyMap(bindings: [KeyBinding([.character("x")], .quit, "leave at once")])
        let model = MonitorViewModel(rows: [], source: SourceStatus(name: "hci0"), screen: .help, keyBindings: custom.bindings)
        let customScreen = render(model, size: ScreenSize(columns: 40, lines: 10))
        #expect(customScreen.line(2).trimmingTrailingSpaces() == " x          leave at once")
        #expect(customScreen.line(3).trimmingTrailingSpaces() == "")
        // Too many keys for the height, even side by side: one column that scrolls, every summary
        // whole (side by side they were cut to 'quit (the terminal i…'); the last line says so.
        let cramped = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 12))
        #expect(cramped.line(2).trimmingTrailingSpaces() == " q          quit (the terminal is restored)")
        #expect(cramped.line(10).trimmingTrailingSpaces() == " ↓ 18 more lines (j/k, PgDn)")
        #expect(cramped.scrollLimit == 17)
        // The smallest terminal: the same, the summaries wrapped under themselves (ScrolledScreenTests
        // reads it to the end).
        let smallest = render(state.viewModel(), size: ScreenSize(columns: 40, lines: 10))
        let smallLines = (0..<smallest.height).map(smallest.line)
        #expect(smallLines[2...3].map { $0.trimmingTrailingSpaces() } == [" q          quit (the terminal is", "            restored)"])
        #expect(smallLines[8].hasPrefix(" ↓ 35 more lines (j/k, PgDn)"), "\(smallLines)")
    }

    @Test func calibrationWizardShowsProgressPowerAndSpread() throws {
        let row = try Self.vectorRow()
        var state = Self.state(row)
        let (_, command) = state.handle(.character("c"))
        #expect(command == .startCalibration(row.identity))
        let collecting = CalibrationProgress(identity: row.identity, name: "Test beacon", samplesCollected: 25, samplesNeeded: 100,
                                             measuredPower: -58.64, spread: 5.2)
        _ = state.update(Self.state(row, calibration: collecting).snapshot)
        let screen = render(state.viewModel(), size: ScreenSize(columns: 60, lines: 12))
        #expect(screen.text == """
             beacontop · calibration          1 beacon · sort: distance
             Calibration: hold Test beacon 1 m from the receiver

              [██████████░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░] 25/100 samples

              Measured power at 1 m: -58.6 dBm   spread: ±5.2 dB
              The spread is large: keep the beacon still, in line of
              sight.

              Collecting... Esc cancels.

             hci0 scanning · 0 adv/s                             ? help
            """)
        #expect(screen.roleCodes(5).contains("WWWWWW"))
        // Enter saves only once enough samples are in.
        #expect(state.handle(.enter).1 == nil)
        var done = collecting
        done.samplesCollected = 100
        done.spread = 1.1
        _ = state.update(Self.state(row, calibration: done).snapshot)
        #expect(render(state.viewModel(), size: ScreenSize(columns: 80, lines: 12)).line(8)
            .hasPrefix("  Enter saves -59 dBm as the catalog override; Esc cancels."))
        // Samples go on past those needed: a count, not '137/100' (seen live on a Bumble beacon as '72/20').
        done.samplesCollected = 137
        _ = state.update(Self.state(row, calibration: done).snapshot)
        #expect(render(state.viewModel(), size: ScreenSize(columns: 80, lines: 12)).line(3).hasSuffix("] 137 samples"))
        #expect(state.handle(.enter).1 == .saveCalibration(row.identity, measuredPower: -59))
        // Saved: the value saved and where, as the wizard's last word.
        done.savedTo = "hall.yaml"
        _ = state.update(Self.state(row, calibration: done).snapshot)
        #expect(render(state.viewModel(), size: ScreenSize(columns: 80, lines: 12)).line(8)
            .hasPrefix("  Saved -59 dBm as the catalog override in hall.yaml. Esc returns."))
        #expect(state.handle(.escape).1 == .cancelCalibration)
        #expect(state.screen == .table)
    }

    @Test("A key that opens another screen from the calibration wizard cancels it, as Esc does: the feed stops sampling the beacon")
    func leavingTheWizardForAnotherScreenCancelsIt() throws {
        let row = try Self.vectorRow()
        let opened: [(Key, MonitorScreen)] = [
            (.character("e"), .events), (.character("H"), .health), (.character("n"), .scanners),
            (.character("d"), .devices), (.character("?"), .help), (.character("/"), .table),
        ]
        for (key, screen) in opened {
            var state = Self.state(row)
            #expect(state.handle(.character("c")).1 == .startCalibration(row.identity))
            let (reaction, command) = state.handle(key)
            #expect(command == .cancelCalibration, "\(key)")
            #expect(reaction.contains(.command) && reaction.contains(.redraw), "\(key): \(reaction)")
            #expect(state.screen == screen, "\(key)")
        }
        // `/` from the wizard edits the table's filter.
        var state = Self.state(row)
        _ = state.handle(.character("c"))
        _ = state.handle(.character("/"))
        _ = state.handle(.character("x"))
        #expect(state.isEditingFilter && state.filterText == "x")
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
