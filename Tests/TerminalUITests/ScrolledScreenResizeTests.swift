import HCI
import Monitor
import Survey
import Testing
@testable import TerminalUI

/// Every screen that scrolls keeps the line being read at its top across a resize and as its
/// content changes (`ScrollAnchor`): it kept a line number, which names other text once the
/// screen is wrapped to another width, so a reader in the middle of the help jumped to another key.
extension ScrolledScreenTests {
    static func resize(_ state: inout MonitorState, columns: Int, lines: Int) {
        state.screenSize = (columns, lines)
        _ = state.handle(.resize)
    }

    /// Presses `j` until line `y` of the screen starts with `prefix`; returns that frame.
    static func scroll(_ state: inout MonitorState, untilLine y: Int, startsWith prefix: String) throws -> [String] {
        var screen = frame(&state)
        for _ in 0..<60 where !screen[y].hasPrefix(prefix) {
            guard state.handle(.character("j")).0 == .redraw else { break }
            screen = frame(&state)
        }
        try #require(screen[y].hasPrefix(prefix), "\(screen)")
        return screen
    }

    @Test("the help scrolled to its middle keeps the key being read at the top across a resize, wider and narrower; it showed another key")
    func theHelpKeepsItsKeyAcrossAResize() throws {
        var state = try Self.helpState(columns: 40, lines: 12)
        let narrow = try Self.scroll(&state, untilLine: 2, startsWith: " /  ")
        #expect(narrow[2...3] == [" /          filter this screen: text or", "            UUID[:major[:minor]]"], "\(narrow)")
        // Wider, each summary takes fewer lines: the filter key is still the one at the top.
        Self.resize(&state, columns: 60, lines: 12)
        let wide = Self.frame(&state)
        #expect(wide[2] == " /          filter this screen: text or UUID[:major[:minor]]", "\(wide)")
        #expect(wide[3].hasPrefix(" f  "), "\(wide)")
        // The keys count from there: a line down is the next key.
        _ = state.handle(.character("j"))
        #expect(Self.frame(&state)[2].hasPrefix(" f  "))
        _ = state.handle(.character("k"))
        #expect(Self.frame(&state) == wide)
        // Narrower again, the same screen as before the resize.
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == narrow)
        // On a summary's second line, that line stays first (a taller window too).
        _ = state.handle(.character("j"))
        Self.resize(&state, columns: 40, lines: 16)
        #expect(Self.frame(&state)[2] == "            UUID[:major[:minor]]")
    }

    @Test("the help at its top stays at its top across a resize; at its end it shows its end where the line read cannot be first, and that line again after a resize back")
    func theHelpAtItsTopAndItsEnd() throws {
        var state = try Self.helpState(columns: 40, lines: 12)
        let top = Self.frame(&state)
        Self.resize(&state, columns: 60, lines: 12)
        #expect(Self.frame(&state)[2].hasPrefix(" q          quit (the terminal is restored)"))
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == top)
        // At the end, wider: the lines below the key at the top fit, so the end shows.
        _ = state.handle(.end)
        let end = Self.frame(&state)
        #expect(end[2...3] == ["            beacon at 1 m", " e          enter/exit event log"], "\(end)")
        Self.resize(&state, columns: 60, lines: 12)
        let wide = Self.frame(&state)
        #expect(wide[2].hasPrefix(" x  ") && wide[10] == " Esc Bksp   back to the table" && !wide.joined().contains("more line"), "\(wide)")
        // Narrower again, the place read is kept: the very screen left.
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == end)
        // Where every key shows at once (two columns at 80x24) too.
        Self.resize(&state, columns: 80, lines: 24)
        #expect(!Self.frame(&state).joined().contains("more line"))
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == end)
    }
}

extension ScrolledScreenTests {
    @Test("the event log scrolled back, then shown whole on a taller window, is at the line read again once the window is short again; it was at its top")
    func theEventLogKeepsItsLineThroughAWholeLog() throws {
        var state = try Self.wrappingLog(columns: 80)
        _ = Self.frame(&state)
        _ = state.handle(.home)
        for _ in 0..<3 { _ = state.handle(.character("j")) }
        let short = Self.frame(&state)
        #expect(short[3] == " 02:00 enter    exhibit 4: visitor came in from the east", "\(short)")
        Self.resize(&state, columns: 80, lines: 20)
        let tall = Self.frame(&state)
        #expect(tall[2] == " 00:00 enter    exhibit 0: visitor came in from the east" && !tall.joined().contains("more line") && !tall.joined().contains("earlier line"), "\(tall)")
        Self.resize(&state, columns: 80, lines: 10)
        #expect(Self.frame(&state) == short)
        // Events arriving meanwhile scroll the log until the line read is the first again.
        Self.resize(&state, columns: 80, lines: 20)
        _ = Self.frame(&state)
        var snapshot = state.snapshot
        snapshot.events += (12..<20).map { MonitorEvent(time: Double($0) * 30, kind: .exit, message: "exhibit \($0)") }
        _ = state.update(snapshot)
        let grown = Self.frame(&state)
        #expect(grown[3] == short[3] && grown[2] == " ↑ 4 earlier lines (k/j, PgUp)", "\(grown)")
    }

    /// Ten transmitters, each with a finding that wraps onto two lines at 40 columns and fits one at 120.
    static func healthState(columns: Int) -> MonitorState {
        let transmitters = (0..<10).map {
            HealthViewTests.transmitter(major: 1, minor: UInt16($0), address: "C0:00:00:00:00:0\($0)", findings: [.nonsenseMeasuredPower(frame: 12)])
        }
        var state = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "hci0"), health: BeaconConditions(time: 60, transmitters: transmitters)),
                                 screenSize: (columns, 12))
        _ = state.handle(.character("H"))
        return state
    }

    @Test("the health view keeps the transmitter being read at the top across a resize and as one is heard before it")
    func theHealthViewKeepsItsTransmitter() throws {
        var state = Self.healthState(columns: 40)
        let row = try Self.scroll(&state, untilLine: 2, startsWith: "!494E5445-…:1:4 ")
        // Wider, each finding on one line: the transmitter read is still at the top.
        Self.resize(&state, columns: 120, lines: 12)
        let wide = Self.frame(&state)
        #expect(wide[2].hasPrefix("!494E5445-4C4C-495F-524F-434B535F4857:1:4 ") && wide[3].hasPrefix("   frame says"), "\(wide)")
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == row)
        // On its finding's second line; wider, the finding has one.
        _ = state.handle(.character("j"))
        _ = state.handle(.character("j"))
        let finding = Self.frame(&state)
        #expect(finding[2] == "   received power, ranging uses the…", "\(finding)")
        Self.resize(&state, columns: 120, lines: 12)
        #expect(Self.frame(&state)[2] == "   frame says +12 dBm at 1 m: not a received power, ranging uses the default")
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == finding)
        // A transmitter heard before it: the line read stays at the top.
        var snapshot = state.snapshot
        snapshot.health.transmitters.insert(HealthViewTests.transmitter(major: 2, minor: 0, address: "B0:00:00:00:00:00"), at: 0)
        _ = state.update(snapshot)
        #expect(Self.frame(&state)[2...9] == finding[2...9])
    }

    @Test("the scanner list keeps the scanner at the top as others join or leave above it; at its top it stays at its top")
    func theScannerListKeepsItsScanner() throws {
        let scanners = (1...12).map { ScannerState(name: "pi-\($0)", room: "room-\($0)", alive: true, declaredOnline: true, secondsSinceHeard: 0.5, messages: 9, offset: 0, offsetSource: "none") }
        var state = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "mqtt://broker"), scanners: scanners), screenSize: (40, 12))
        _ = state.handle(.character("n"))
        _ = try Self.scroll(&state, untilLine: 2, startsWith: " pi-3 ")
        // One joins before it, then two leave before it: pi-3 stays the one read.
        var snapshot = state.snapshot
        snapshot.scanners.insert(ScannerState(name: "esp-0", room: "hall", alive: true, declaredOnline: true, secondsSinceHeard: 1, messages: 1, offset: 0, offsetSource: "none"), at: 0)
        _ = state.update(snapshot)
        let joined = Self.frame(&state)
        #expect(joined[2].hasPrefix(" pi-3 ") && joined[10] == " ↓ 2 more lines (j/k, PgDn)", "\(joined)")
        snapshot.scanners.removeFirst(2)
        _ = state.update(snapshot)
        #expect(Self.frame(&state)[2].hasPrefix(" pi-3 "))
        // At the top a new first scanner shows first, as the list's top.
        _ = state.handle(.home)
        #expect(Self.frame(&state)[2].hasPrefix(" pi-2 "))
        snapshot.scanners.insert(ScannerState(name: "esp-1", room: "hall", alive: true, declaredOnline: true, secondsSinceHeard: 1, messages: 1, offset: 0, offsetSource: "none"), at: 0)
        _ = state.update(snapshot)
        #expect(Self.frame(&state)[2].hasPrefix(" esp-1 "))
    }
}

extension ScrolledScreenTests {
    @Test("the detail pane keeps the part being read at the top across a resize, and again after a resize back from its end")
    func theDetailPaneKeepsItsPart() throws {
        var state = try Self.detailState(columns: 40, lines: 12)
        // Three findings, so that the pane scrolls by six lines at 40x12.
        var snapshot = state.snapshot
        let identity = try #require(state.selectedRow?.identity)
        var transmitter = HealthViewTests.transmitters[3]
        transmitter.findings += [.nonsenseMeasuredPower(frame: 14), .nonsenseMeasuredPower(frame: 16)]
        snapshot.health.byIdentity[identity] = BeaconCondition(health: transmitter)
        _ = state.update(snapshot)
        // On the values' last line (the name and the id above them take two, the values four).
        let narrow = try Self.scroll(&state, untilLine: 1, startsWith: " seen 0.4s ago")
        // At 45 columns the values take three lines: the last of them is at the top.
        Self.resize(&state, columns: 45, lines: 12)
        let wide = Self.frame(&state)
        #expect(wide[1] == " TX@1m -8 dBm · 4.5 pkt/s · seen 0.4s ago", "\(wide)")
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == narrow)
        // At the end the health is at the top; at 50 columns the pane's end shows (it is shorter),
        // and back at 40 the health is at the top again.
        _ = state.handle(.end)
        let end = Self.frame(&state)
        #expect(end[1].hasPrefix(" Health C2:") && end[10] == "           raw ?", "\(end)")
        Self.resize(&state, columns: 50, lines: 12)
        #expect(Self.frame(&state)[10] == " Filters:  kalman 1.90 m  median 2.30 m  raw ?")
        Self.resize(&state, columns: 40, lines: 12)
        #expect(Self.frame(&state) == end)
    }

    @Test("the survey's help page keeps the entry being read at the top across a resize")
    func theSurveyHelpKeepsItsEntry() throws {
        var state = SurveyScreenTests.state()
        var page = SurveyScreenTests.press(.character("h"), &state, columns: 40, lines: 12)
        for _ in 0..<40 where !page[2].hasPrefix(" ?   ") {
            page = SurveyScreenTests.press(.character("j"), &state, columns: 40, lines: 12)
        }
        #expect(page[2...3] == [" ?   a sample where the nearest exhibit", "     is ambiguous: two are within 1 dB"], "\(page)")
        let wide = SurveyScreenTests.press(.resize, &state, columns: 60, lines: 12)
        #expect(wide[2] == " ?   a sample where the nearest exhibit is ambiguous: two", "\(wide)")
        #expect(SurveyScreenTests.press(.resize, &state, columns: 40, lines: 12) == page)
    }
}

extension NarrowScreenTests {
    @Test("the help scrolled at 60 columns and narrowed to 40 keeps the key being read at the top; it showed an earlier key")
    func theHelpNarrowedKeepsItsKey() throws {
        var state = try ScrolledScreenTests.helpState(columns: 60, lines: 12)
        let wide = try ScrolledScreenTests.scroll(&state, untilLine: 2, startsWith: " /  ")
        #expect(wide[2] == " /          filter this screen: text or UUID[:major[:minor]]", "\(wide)")
        ScrolledScreenTests.resize(&state, columns: 40, lines: 12)
        let narrow = ScrolledScreenTests.frame(&state)
        #expect(narrow[2...3] == [" /          filter this screen: text or", "            UUID[:major[:minor]]"], "\(narrow)")
        ScrolledScreenTests.resize(&state, columns: 60, lines: 12)
        #expect(ScrolledScreenTests.frame(&state) == wide)
    }
}
