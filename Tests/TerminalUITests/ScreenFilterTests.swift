import Monitor
import Survey
import Testing
@testable import TerminalUI

/// `/` on the health view, the scanner list and the event log narrows the screen shown, each with a text of its own
/// (`ScreenFilters`), as `htop`, `k9s` and `less`'s `&pattern` do: it went back to the table and
/// filtered that. Whole lines as a person sees them: the title's or the heading's count, the
/// prompt, an empty result, and the scroll anchors on a narrowed screen.
@Suite struct ScreenFilterTests {
    /// Thirty scanners `pi-N` in rooms `booth-N`; the seventh has gone silent.
    static func scannerState(columns: Int, lines: Int) -> MonitorState {
        let scanners = (1...30).map {
            ScannerState(name: "pi-\($0)", room: "booth-\($0)", alive: $0 != 7, declaredOnline: nil, secondsSinceHeard: 0.5, messages: 9,
                         offset: 0, offsetSource: "none")
        }
        return MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "mqtt://broker"), scanners: scanners), screenSize: (columns, lines))
    }

    static func type(_ text: String, into state: inout MonitorState) {
        for character in text { _ = state.handle(.character(character)) }
    }

    /// `/` again, the screen's text erased and `text` typed in its place.
    static func retype(_ text: String, into state: inout MonitorState) {
        _ = state.handle(.character("/"))
        for _ in state.screenFilters[state.screen] { _ = state.handle(.backspace) }
        type(text, into: &state)
    }

    @Test("/ on the scanner list narrows it by name, room or state: the title counts 2 of 30 scanners, the prompt says what it matches, none matching says so")
    func theScannerListFiltersItself() {
        var state = Self.scannerState(columns: 80, lines: 12)
        _ = state.handle(.character("n"))
        #expect(ScrolledScreenTests.frame(&state)[0].hasSuffix(" 30 scanners"))
        _ = state.handle(.character("/"))
        Self.type("BOOTH-3", into: &state)
        let typing = ScrolledScreenTests.frame(&state)
        #expect(typing[0] == " beacontop · scanners                                          2 of 30 scanners")
        #expect(typing[2].hasPrefix(" pi-3             booth-3          online") && typing[3].hasPrefix(" pi-30            booth-30 ") && typing[4] == "",
                "\(typing)")
        #expect(typing[11] == " / scanners (name, room, state): BOOTH-3_")
        _ = state.handle(.enter)
        let kept = ScrolledScreenTests.frame(&state)
        #expect(kept[0].hasSuffix(" 2 of 30 scanners · /BOOTH-3") && kept[11].hasPrefix(" mqtt://broker"), "\(kept)")
        // The state counts as the list shows it.
        Self.retype("silent", into: &state)
        let silent = ScrolledScreenTests.frame(&state)
        #expect(silent[2].hasPrefix(" pi-7             booth-7          silent") && silent[3] == "", "\(silent)")
        Self.type("!", into: &state)
        _ = state.handle(.enter)
        #expect(Array(ScrolledScreenTests.frame(&state)[0...3]) == [
            " beacontop · scanners                               0 of 30 scanners · /silent!",
            " SCANNER          ROOM             STATE    LAST  MSG/s CLOCK s       OFFSET dB",
            "  No scanner matches the filter \"silent!\" (name, room or state)",
            "",
        ])
        // The table is not filtered by the list's text, and shows none of it in its title.
        _ = state.handle(.character("n"))
        #expect(state.screen == .table && !ScrolledScreenTests.frame(&state)[0].contains("/silent"))
    }

    @Test("the narrowed scanner list scrolls from its top, and keeps the scanner read at the top as one joins above it")
    func theFilteredScannerListKeepsItsScanner() throws {
        var state = Self.scannerState(columns: 40, lines: 12)
        _ = state.handle(.character("n"))
        _ = try ScrolledScreenTests.scroll(&state, untilLine: 2, startsWith: " pi-5 ")
        // pi-1, pi-10 to pi-19: eleven, shown from the top as typed.
        _ = state.handle(.character("/"))
        Self.type("pi-1", into: &state)
        let top = ScrolledScreenTests.frame(&state)
        #expect(top[2].hasPrefix(" pi-1 ") && top[3].hasPrefix(" pi-10 ") && top[10] == " ↓ 3 more lines (j/k, PgDn)", "\(top)")
        _ = state.handle(.enter)
        _ = try ScrolledScreenTests.scroll(&state, untilLine: 2, startsWith: " pi-11 ")
        var snapshot = state.snapshot
        snapshot.scanners.insert(ScannerState(name: "pi-1a", room: "lobby", alive: true, declaredOnline: true, secondsSinceHeard: 1, messages: 1,
                                              offset: 0, offsetSource: "none"), at: 0)
        _ = state.update(snapshot)
        let joined = ScrolledScreenTests.frame(&state)
        #expect(joined[2].hasPrefix(" pi-11 ") && joined[3].hasPrefix(" pi-12 "), "pi-1a joined above: \(joined)")
        #expect(state.viewModel().scanners.count == 12 && state.viewModel().totalScannerCount == 31)
    }

    @Test("/ on the health view narrows it by name, id or address: the title counts 1 of 4 transmitters, with its findings; the table's marks stay")
    func theHealthViewFiltersItself() {
        var state = MonitorState(snapshot: MonitorSnapshot(source: SourceStatus(name: "govee-h5100.btsnoop"),
                                                           health: BeaconConditions(time: 60, transmitters: HealthViewTests.transmitters)),
                                 screenSize: (80, 12))
        _ = state.handle(.character("H"))
        _ = state.handle(.character("/"))
        Self.type("c2:35", into: &state)
        let typing = ScrolledScreenTests.frame(&state)
        #expect(typing[0] == " beacontop · health                                         1 of 4 transmitters", "\(typing)")
        #expect(typing[2].hasPrefix("!4…:20597:62207 …30:25:50 ") && typing[3].hasPrefix("   frame says +12 dBm") && typing[5] == "", "\(typing)")
        #expect(typing[11] == " / health (name, id, address): c2:35_")
        // The id's minor matches two transmitters: one identity from two addresses.
        _ = state.handle(.enter)
        Self.retype(":62207", into: &state)
        _ = state.handle(.enter)
        let kept = ScrolledScreenTests.frame(&state)
        #expect(kept[0].hasSuffix(" 2 of 4 transmitters · /:62207") && kept[2].hasPrefix(" 4…:20597:62207 …05:C7:A1 "), "\(kept)")
        _ = state.handle(.character("/"))
        Self.type("x", into: &state)
        _ = state.handle(.enter)
        #expect(ScrolledScreenTests.frame(&state)[2] == "  No transmitter matches the filter \":62207x\" (name, id or address)")
        #expect(state.viewModel().health.byIdentity == state.snapshot.health.byIdentity)
    }

    /// Forty events, four kinds in turn: the Rosetta Stone entered, the chessmen left, a phone in
    /// the café, the radio lost; the log open at its end, `/` pressed and `text` typed.
    static func logState(typing text: String) throws -> MonitorState {
        let messages: [(MonitorEvent.Kind, String)] = [
            (.enter, "Rosetta Stone (cast)"), (.exit, "Lewis Chessmen"), (.info, "irk:0011aabb in café"), (.warning, "hci0 lost: device removed"),
        ]
        let events = (0..<40).map { MonitorEvent(time: Double($0) * 30, kind: messages[$0 % 4].0, message: messages[$0 % 4].1) }
        var state = SecondaryScreenTests.state(try SecondaryScreenTests.vectorRow(), events: events)
        state.screenSize = (60, 10)
        _ = state.handle(.character("e"))
        _ = ScrolledScreenTests.frame(&state)
        _ = state.handle(.character("/"))
        type(text, into: &state)
        return state
    }

    @Test("/ on the event log shows the events whose kind or message holds the text, counted 10 of 40, and it follows its end as they come")
    func theEventLogFiltersItself() throws {
        var state = try Self.logState(typing: "Rosetta")
        let typing = ScrolledScreenTests.frame(&state)
        #expect(typing[1] == "  TIME KIND     WHAT                      Events (10 of 40)")
        #expect(typing[2] == " ↑ 4 earlier lines (k/j, PgUp)" && typing[8] == " 18:00 enter    Rosetta Stone (cast)", "\(typing)")
        #expect(typing[9] == " / events (kind, message): Rosetta_")
        _ = state.handle(.enter)
        // The title shows the log's filter, not the table's, before the sort and the ranging
        // filter, which give way first.
        #expect(ScrolledScreenTests.frame(&state)[0] == " beacontop · events                     1 beacon · /Rosetta")
        let wide = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 10)).line(0)
        #expect(wide == " beacontop · events       1 beacon · /Rosetta · sort: distance · filter: kalman ", "\(wide)")
        // Following its end, the log shows a new match at the bottom; one that does not match is
        // counted and not shown.
        var snapshot = state.snapshot
        snapshot.events.append(MonitorEvent(time: 1300, kind: .exit, message: "Rosetta Stone (cast)"))
        snapshot.events.append(MonitorEvent(time: 1310, kind: .enter, message: "Lewis Chessmen"))
        _ = state.update(snapshot)
        let following = ScrolledScreenTests.frame(&state)
        #expect(following[1].hasSuffix("Events (11 of 42)") && following[7...8] == [" 18:00 enter    Rosetta Stone (cast)", " 21:40 exit     Rosetta Stone (cast)"],
                "\(following)")
        // Any case, accents included; a kind matches as a word of the line.
        Self.retype("CAFÉ", into: &state)
        #expect(ScrolledScreenTests.frame(&state)[8] == " 19:00 info     irk:0011aabb in café")
        for _ in 0..<4 { _ = state.handle(.backspace) }
        Self.type("warning", into: &state)
        #expect(ScrolledScreenTests.frame(&state)[1].hasSuffix("Events (10 of 42)"))
        Self.type("!", into: &state)
        let none = ScrolledScreenTests.frame(&state)
        #expect(none[1].hasSuffix(" Events (0 of 42)") && none[2] == "  No event matches the filter \"warning!\" (kind or message)", "\(none)")
    }

    /// The log narrowed to `rosetta`, scrolled from its top down two lines: the 06:00 event read.
    static func logScrolledBack() throws -> MonitorState {
        var state = try logState(typing: "rosetta")
        _ = state.handle(.enter)
        _ = ScrolledScreenTests.frame(&state)
        _ = state.handle(.home)
        _ = ScrolledScreenTests.frame(&state)
        for _ in 0..<2 { _ = state.handle(.character("j")) }
        return state
    }

    @Test("the narrowed event log scrolled back keeps the event read at the top, and Esc leaves the reader at it in the whole log")
    func theFilteredEventLogKeepsItsEvent() throws {
        var state = try Self.logScrolledBack()
        let read = ScrolledScreenTests.frame(&state)
        #expect(read[2] == " ↑ 3 earlier lines (k/j, PgUp)" && read[3] == " 06:00 enter    Rosetta Stone (cast)", "\(read)")
        // Scrolled back, a new match stays below, as in the whole log.
        var snapshot = state.snapshot
        snapshot.events.append(MonitorEvent(time: 1300, kind: .exit, message: "Rosetta Stone (cast)"))
        _ = state.update(snapshot)
        #expect(ScrolledScreenTests.frame(&state)[3] == read[3])
        // Cleared, the whole log shows from the same event: twelve earlier lines above it now.
        _ = state.handle(.character("/"))
        _ = state.handle(.escape)
        let whole = ScrolledScreenTests.frame(&state)
        #expect(whole[2] == " ↑ 12 earlier lines (k/j, PgUp)" && whole[3] == " 06:00 enter    Rosetta Stone (cast)" && whole[4] == " 06:30 exit     Lewis Chessmen",
                "\(whole)")
        #expect(whole[1].hasSuffix("Events (41)"))
    }

    @Test("the event log scrolled back, a filter typed past any match keeps the event read: cleared, the whole log shows from it, not from its top")
    func aFilterMatchingNothingKeepsTheEventRead() throws {
        var state = try Self.logScrolledBack()
        #expect(ScrolledScreenTests.frame(&state)[3] == " 06:00 enter    Rosetta Stone (cast)")
        _ = state.handle(.character("/"))
        Self.type("x", into: &state)
        #expect(ScrolledScreenTests.frame(&state)[2] == "  No event matches the filter \"rosettax\" (kind or message)")
        _ = state.handle(.escape)
        let whole = ScrolledScreenTests.frame(&state)
        #expect(whole[2] == " ↑ 12 earlier lines (k/j, PgUp)" && whole[3] == " 06:00 enter    Rosetta Stone (cast)", "\(whole)")
    }

    @Test("the filter prompt keeps what is typed in view: at 40 columns the prompt alone filled the line, so the text never showed")
    func thePromptKeepsTheTextTypedInView() throws {
        var state = MonitorState(snapshot: MonitorSnapshot(rows: [try SecondaryScreenTests.vectorRow()], source: SourceStatus(name: "hci0")),
                                 screenSize: (40, 12))
        _ = state.handle(.character("/"))
        Self.type("chess", into: &state)
        // What it matches gives way first.
        #expect(ScrolledScreenTests.frame(&state)[11] == " / filter: chess_")
        Self.type("men of lewis, walrus ivory", into: &state)
        // Then the start of the text: its end and the cursor stay.
        #expect(ScrolledScreenTests.frame(&state)[11] == " / filter: …men of lewis, walrus ivory_")
        _ = state.handle(.escape)
        // At 80 columns the whole prompt, as before.
        state.screenSize = (80, 12)
        _ = state.handle(.character("/"))
        Self.type("chess", into: &state)
        #expect(ScrolledScreenTests.frame(&state)[11] == " / filter (text or UUID[:major[:minor]]): chess_")
    }
}
