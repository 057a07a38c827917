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
}
