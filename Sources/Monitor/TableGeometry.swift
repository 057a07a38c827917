/// Where the live table sits on screen, shared by the renderer (to draw) and `MonitorState` (to turn a
/// mouse click or a page key into a row): one computation, so a click always lands on the row drawn.
///
/// Layout, top to bottom: title bar, column header, rows, the nearest-exhibit panel (when shown), the
/// status line.
public struct TableGeometry: Sendable, Equatable {
    /// The smallest screen the monitor draws; below it a message asks for a larger terminal.
    public static let minimumColumns = 40
    public static let minimumLines = 10
    /// Lines the nearest-exhibit panel takes: a rule with the name, then the description.
    public static let panelLines = 4

    public let firstRowLine: Int
    public let rowCapacity: Int

    /// `panel`: the lines the nearest-exhibit panel takes (`NearestExhibit.panelLines`), 0 for none.
    public init(lines: Int, panel: Int) {
        firstRowLine = 2
        rowCapacity = max(0, lines - 3 - panel)
    }

    /// The table under a nearest exhibit's panel, or with none.
    public init(lines: Int, nearest: NearestExhibit?) {
        self.init(lines: lines, panel: nearest?.panelLines ?? 0)
    }

    public static func fits(columns: Int, lines: Int) -> Bool {
        columns >= minimumColumns && lines >= minimumLines
    }

    /// The first row index shown so that `selectedIndex` is visible (the selection sticks to the last
    /// visible line while moving down, as in htop).
    public func firstVisibleIndex(selectedIndex: Int?, rowCount: Int) -> Int {
        guard rowCapacity > 0, let selected = selectedIndex else { return 0 }
        let first = max(0, selected - rowCapacity + 1)
        return min(first, max(0, rowCount - rowCapacity))
    }

    /// The row index drawn on screen line `line`, nil if the line shows no row.
    public func rowIndex(atLine line: Int, selectedIndex: Int?, rowCount: Int) -> Int? {
        let offset = line - firstRowLine
        guard offset >= 0, offset < rowCapacity else { return nil }
        let index = firstVisibleIndex(selectedIndex: selectedIndex, rowCount: rowCount) + offset
        return index < rowCount ? index : nil
    }
}
