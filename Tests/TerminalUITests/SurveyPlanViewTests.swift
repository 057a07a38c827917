import Ranging
import Survey
import Testing
@testable import TerminalUI

/// The survey's floor plan in the terminal, asserted as whole screens of text plus style roles.
@Suite struct SurveyPlanViewTests {
    static func roles(_ buffer: ScreenBuffer) -> String {
        (0..<buffer.height).map { String(buffer.roleCodes($0).map { $0 == "." ? " " : $0 }).trimmingTrailingSpaces() }
            .joined(separator: "\n")
    }

    static func reading(_ id: String, _ median: Double) -> SpotReading {
        SpotReading(id: id, packets: 20, median: median, low: median - 2, high: median + 2, measuredPower: -59, exponent: 2, distance: nil)
    }

    /// A 10 x 6 m room with a partition, two beacons, and one sample of each kind.
    static func model(cursor: FloorPosition) -> SurveyPlanModel {
        let plan = SurveyPlan(title: "Room", beacons: [
            SurveyPlan.Beacon(id: "a", name: "Alpha", position: FloorPosition(x: 2, y: 3)),
            SurveyPlan.Beacon(id: "b", name: "Beta", position: FloorPosition(x: 8, y: 3)),
            SurveyPlan.Beacon(id: "c", name: "Unplaced", position: nil),
        ], walls: [[[0, 0], [10, 0], [10, 6], [0, 6], [0, 0]], [[5, 0], [5, 4]]])
        var session = SurveySession(plan: plan, created: 0)
        let spots: [(Double, Double, [SpotReading])] = [
            (1, 5, [reading("a", -55)]),                       // strong, covered
            (3, 5, [reading("a", -66)]),                       // good
            (3, 1, [reading("a", -77)]),                       // weak, still covered
            (5.5, 5, [reading("a", -64), reading("b", -64.5)]), // ambiguous
            (9, 1, [reading("b", -85)]),                       // no coverage
        ]
        for (x, y, readings) in spots {
            session.add(SurveySample(index: 0, spot: FloorPosition(x: x, y: y), start: 0, end: 5, readings: readings))
        }
        return SurveyPlanModel(session: session, cursor: cursor)
    }

    @Test func theRoomItsBeaconsAndEveryKindOfSample() {
        let screen = SurveyPlanView.render(Self.model(cursor: FloorPosition(x: 7, y: 1)), size: ScreenSize(columns: 46, lines: 14))
        // y is up: the samples at y = 5 are near the top. The partition stands on the outline (┴).
        #expect(screen.text == """

                ┌────────────────────────────────────┐
                │                                    │
                │   █      ▓        ?                │
                │                                    │
                │                  │                 │
                │                  │                 │
                │      A           │          B      │
                │                  │                 │
                │                  │                 │
                │          ▒       │      +      ×   │
                │                  │                 │
                └──────────────────┴─────────────────┘

            """)
        // Strong, good and weak coverage (immediate, near, far), the ambiguous spot (nearest), no
        // coverage (warning), beacons (column header), the cursor (selected), walls (muted).
        #expect(Self.roles(screen) == """

                mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
                m                                    m
                m   i      n        N                m
                m                                    m
                m                  m                 m
                m                  m                 m
                m      C           m          C      m
                m                  m                 m
                m                  m                 m
                m          f       m      S      W   m
                m                  m                 m
                mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

            """)
    }

    @Test func theCursorOverASampleShowsItSelected() {
        let screen = SurveyPlanView.render(Self.model(cursor: FloorPosition(x: 9, y: 1)), size: ScreenSize(columns: 46, lines: 14))
        #expect(screen.line(10).trimmingTrailingSpaces() == "    │          ▒       │             ×   │")
        #expect(screen.roleCodes(10).filter { $0 == "S" }.count == 1)
        let column = Array(screen.line(10)).firstIndex(of: "×")
        #expect(column.map { screen[$0, 10].role } == .selected, "the × stays, drawn selected")
    }

    /// A sample taken standing at a beacon is not hidden by its letter: the letter takes the
    /// sample's style (here the strong level's).
    @Test func aSampleAtABeaconShowsInItsLetter() {
        var model = Self.model(cursor: FloorPosition(x: 7, y: 1))
        let reading = Self.reading("a", -52)
        model.samples.append(SurveySample(index: 6, spot: FloorPosition(x: 2, y: 3), start: 0, end: 5, readings: [reading]))
        model.coverage.append(SpotCoverage(model.samples[5], exhibits: model.plan.exhibitIDs, rule: CoverageRule()))
        let screen = SurveyPlanView.render(model, size: ScreenSize(columns: 46, lines: 14))
        #expect(screen.line(7).trimmingTrailingSpaces() == "    │      A           │          B      │")
        #expect(String(screen.roleCodes(7)) == "....m......i...........m..........C......m....")
    }

    @Test func asciiTerminalsGetASCIIGlyphs() {
        let screen = SurveyPlanView.render(Self.model(cursor: FloorPosition(x: 7, y: 1)), size: ScreenSize(columns: 46, lines: 14), charset: .ascii)
        #expect(screen.line(1).trimmingTrailingSpaces() == "    +------------------------------------+")
        #expect(screen.line(3).trimmingTrailingSpaces() == "    |   #      =        ?                |")
        #expect(screen.line(10).trimmingTrailingSpaces() == "    |          -       |      +      x   |")
        #expect(screen.line(12).trimmingTrailingSpaces() == "    +------------------+-----------------+")
        #expect(screen.text.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func theCursorWidensThePlanAndOddInputNeverTraps() {
        let far = SurveyPlanView.render(Self.model(cursor: FloorPosition(x: 30, y: 3)), size: ScreenSize(columns: 46, lines: 14))
        #expect(far.text.contains("+"), "a cursor beyond the walls is still on screen")
        #expect(far.text.contains("A") && far.text.contains("B"))
        for cursor in [FloorPosition(x: .nan, y: 0), FloorPosition(x: .infinity, y: -.infinity), FloorPosition(x: 1e300, y: 1)] {
            _ = SurveyPlanView.render(Self.model(cursor: cursor), size: ScreenSize(columns: 46, lines: 14))
        }
        for size in [ScreenSize(columns: 0, lines: 0), ScreenSize(columns: 1, lines: 1), ScreenSize(columns: 3, lines: 2)] {
            let tiny = SurveyPlanView.render(Self.model(cursor: FloorPosition(x: 1, y: 1)), size: size)
            #expect(tiny.width == size.columns)
        }
    }

    @Test func drawingIntoAnAreaLeavesTheRestAlone() {
        var buffer = ScreenBuffer(width: 60, height: 16)
        buffer.write("title", x: 0, y: 0, role: .header)
        SurveyPlanView.draw(Self.model(cursor: FloorPosition(x: 7, y: 1)), into: &buffer, area: .init(x: 10, y: 2, width: 30, height: 10))
        #expect(buffer.line(0).hasPrefix("title"))
        for y in 0..<16 {
            let line = Array(buffer.line(y))
            let outside = line.enumerated().filter { $0.offset < 10 || $0.offset >= 40 || y < 2 || y >= 12 }
            #expect(outside.allSatisfy { $0.element == " " || y == 0 }, "line \(y): \(String(line))")
        }
    }

    @Test func slantedWallsStepDiagonally() {
        let plan = SurveyPlan(title: nil, beacons: [], walls: [[[0, 0], [6, 6]], [[0, 6], [6, 0]]])
        let screen = SurveyPlanView.render(
            SurveyPlanModel(plan: plan, cursor: FloorPosition(x: 3, y: 3), samples: [], coverage: []), size: ScreenSize(columns: 14, lines: 7))
        #expect(screen.text.contains("╲") && screen.text.contains("╱"))
        #expect(!screen.text.contains("─") && !screen.text.contains("│"))
    }

    @Test func theLegendNamesEveryMark() {
        let legend = SurveyPlanView.legend(charset: .unicode)
        #expect(legend.map(\.glyph) == ["█", "▓", "▒", "?", "×", "A"])
        #expect(Set(legend.map(\.role)).count == legend.count, "one role per meaning")
    }
}

/// A mouse click lands on the floor spot drawn in that cell.
@Suite struct SurveyPlanClickTests {
    @Test func theSpotUnderACellIsDrawnInThatCell() throws {
        let plan = SurveyPlan(title: nil, beacons: [
            SurveyPlan.Beacon(id: "a", name: "A", position: FloorPosition(x: 0, y: 0)),
            SurveyPlan.Beacon(id: "b", name: "B", position: FloorPosition(x: 12, y: 6)),
        ], walls: [])
        let model = SurveyPlanModel(plan: plan, cursor: FloorPosition(x: 3, y: 3), samples: [], coverage: [])
        let area = SurveyPlanView.Area(x: 0, y: 1, width: 60, height: 20)
        #expect(SurveyPlanView.position(atColumn: 5, row: 0, model, area: area) == nil, "the title line is not the plan")
        #expect(SurveyPlanView.position(atColumn: 60, row: 5, model, area: area) == nil)
        // Cells inside the plan's box (a click outside it widens the box, and the plan rescales).
        for (column, row) in [(10, 8), (30, 10), (45, 15)] {
            let spot = try #require(SurveyPlanView.position(atColumn: column, row: row, model, area: area))
            var moved = model
            moved.cursor = spot
            var screen = ScreenBuffer(width: 60, height: 21, charset: .unicode)
            SurveyPlanView.draw(moved, into: &screen, area: area)
            let plus = (0..<21).flatMap { y in (0..<60).compactMap { x in screen[x, y].character == "+" ? [x, y] : nil } }
            #expect(plus == [[column, row]], "clicked \(column),\(row)")
        }
    }
}
