import Testing
import BeaconFormats
import Monitor
@testable import TerminalUI

@Test func scratchPrint() {
    let rows = [
        Museum.row(Museum.rosetta, "Rosetta Stone (cast)", rssi: -58, accuracy: 0.82, proximity: .immediate, history: [-80, -75, -70, -65, -60, -58]),
        Museum.row(Museum.chessmen, "Lewis Chessmen", rssi: -71, accuracy: 3.4, proximity: .near),
        Museum.row(Museum.helmet, nil, rssi: -90, accuracy: 14.2, proximity: .far, age: 12, stale: true),
    ]
    let nearest = NearestExhibit(identity: Museum.rosetta, name: "Rosetta Stone (cast)", description: Museum.rosettaText, proximity: .immediate)
    var state = MonitorState(snapshot: Museum.snapshot(rows: rows, nearest: nearest), screenSize: (80, 14))
    for size in [(80, 14), (40, 10), (39, 9)] {
        let b = render(state.viewModel(), size: ScreenSize(columns: size.0, lines: size.1))
        print(b.text)
        for y in 0..<b.height { print(b.roleCodes(y)) }
    }
    _ = state.handle(.enter)
    print(render(state.viewModel(), size: ScreenSize(columns: 80, lines: 20)).text)
    _ = state.handle(.character("?"))
    print(render(state.viewModel(), size: ScreenSize(columns: 80, lines: 24)).text)
}
