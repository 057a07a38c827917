import Monitor
import Testing
@testable import TerminalUI

/// The title bar gives way in a stated order, and a long venue name is cut rather than lost.
@Suite struct TitleBarTests {
    static let longTitle = "International Museum of Scientific Instruments, East Wing, Hall B"

    static func titleLine(_ title: String, columns: Int, charset: Charset = .unicode) -> String {
        let rows = [Museum.row(Museum.rosetta, "Rosetta Stone", rssi: -60, accuracy: 1, proximity: .near)]
        var snapshot = Museum.snapshot(rows: rows)
        snapshot.title = title
        let model = MonitorState(snapshot: snapshot, screenSize: (columns, 12)).viewModel()
        return render(model, size: ScreenSize(columns: columns, lines: 12), charset: charset).line(0).trimmingTrailingSpaces()
    }

    @Test("a catalog title too long for the line is cut with an ellipsis, not dropped (it read 'beacontop' alone)")
    func aLongTitleIsCutNotDropped() {
        let line = Self.titleLine(Self.longTitle, columns: 100)
        #expect(line.hasPrefix(" beacontop · International Museum of Scientific Instruments, East Wing…   1 beacon"), "\(line)")
        #expect(line.hasSuffix("1 beacon · sort: distance"), "the count and sort stay: \(line)")
        // A title of double-width characters is cut whole, never mid-character.
        let wide = Self.titleLine(String(repeating: "東京国立博物館", count: 8), columns: 60)
        #expect(wide.contains("東京国立博物館東京") && wide.contains("…") && TerminalText.width(wide, charset: .unicode) <= 60, "\(wide)")
        // In an ASCII locale the cut is `~`, as every other cut is.
        #expect(Self.titleLine(Self.longTitle, columns: 100, charset: .ascii).contains("Instruments, East Wing~   1 beacon | sort"))
        // Below 8 columns of title it goes, as before, and the sort goes last.
        #expect(Self.titleLine(Self.longTitle, columns: 45) == " beacontop         1 beacon · sort: distance")
        #expect(Self.titleLine("The Little Museum", columns: 100).hasPrefix(" beacontop · The Little Museum   "))
    }
}
