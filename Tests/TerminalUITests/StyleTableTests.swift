import Monitor
import Testing
@testable import TerminalUI

@Suite struct StyleTableTests {
    @Test func noColorWinsOverAnyTerminal() {
        #expect(ColorDepth(colors: 256, noColorVariable: "1") == .monochrome)
        #expect(ColorDepth(colors: 8, noColorVariable: "yes") == .monochrome)
        // no-color.org: an empty NO_COLOR does not count.
        #expect(ColorDepth(colors: 256, noColorVariable: "") == .extended)
        #expect(ColorDepth(colors: 8, noColorVariable: nil) == .eight)
        #expect(ColorDepth(colors: 0, noColorVariable: nil) == .monochrome)
    }

    @Test func monochromeUsesNoColourAndKeepsImportantRolesApart() {
        let mono = StyleRole.allCases.map { StyleTable.style(for: $0, depth: .monochrome) }
        #expect(mono.allSatisfy { $0.foreground == nil && $0.background == nil })
        let mustDiffer: [StyleRole] = [.plain, .selected, .nearest, .stale, .warning, .header, .recording]
        let looks = mustDiffer.map { StyleTable.style(for: $0, depth: .monochrome).attributes }
        #expect(Set(looks).count == mustDiffer.count)
    }

    @Test func eightColourTerminalsGetOnlyTheEightANSIColours() {
        for role in StyleRole.allCases {
            let style = StyleTable.style(for: role, depth: .eight)
            for color in [style.foreground, style.background].compactMap({ $0 }) {
                #expect((0...7).contains(color.number), "\(role) uses \(color)")
            }
        }
        // Proximity classes are told apart by colour where there is colour.
        let classes: [StyleRole] = [.immediate, .near, .far, .unknown]
        #expect(Set(classes.map { StyleTable.style(for: $0, depth: .eight).foreground?.number ?? -1 }).count >= 3)
    }

    @Test func noColorRenderingKeepsRolesSoTheScreenStillReads() {
        // NO_COLOR changes only the style table: the same frame, with the selected row, the nearest
        // row and the stale row still distinguishable through attributes alone. The nearest row
        // leads the distance sort, so the selection moves down to the next one.
        let rows = [
            Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -58, accuracy: 0.8, proximity: .immediate),
            Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -70, accuracy: 2.8, proximity: .near),
            Museum.row(Museum.helmet, "Sutton Hoo Helmet", rssi: -92, accuracy: 20, proximity: .unknown, age: 30, stale: true),
        ]
        let nearest = NearestExhibit(identity: Museum.chessmen, name: "Lewis Chessmen", description: "Walrus ivory.", proximity: .far)
        var state = MonitorState(snapshot: Museum.snapshot(rows: rows, nearest: nearest))
        _ = state.handle(.down)
        let screen = render(state.viewModel(), size: ScreenSize(columns: 40, lines: 10))
        let attributes = (2...4).map { StyleTable.style(for: screen[5, $0].role, depth: .monochrome).attributes }
        #expect(attributes == [.bold, .reverse, .dim])
        // The panel is dismissed when the nearest exhibit is only far.
        #expect(!screen.text.contains("Walrus"))
    }
}
