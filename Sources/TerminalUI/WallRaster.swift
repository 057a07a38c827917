/// Walls drawn in cells with box-drawing characters: each cell collects the directions lines
/// leave it in (left, right, up, down), so two walls meeting at a corner draw `┐`, a T junction
/// `┬`, a crossing `┼`; a slanted wall steps with `╱` or `╲`. ASCII draws `-`, `|`, `+`, `/`, `\`.
struct WallRaster {
    private struct Links: OptionSet, Hashable {
        let rawValue: UInt8
        static let left = Links(rawValue: 1)
        static let right = Links(rawValue: 2)
        static let up = Links(rawValue: 4)
        static let down = Links(rawValue: 8)
        static let rising = Links(rawValue: 16)
        static let falling = Links(rawValue: 32)
    }

    let charset: Charset
    private var links: [PlanMapping.Cell: Links] = [:]

    init(charset: Charset) {
        self.charset = charset
    }

    /// A wall from cell `a` to cell `b`: straight along a row or column when it is mostly so
    /// (within 1 cell in 3), a diagonal step otherwise.
    mutating func add(_ a: PlanMapping.Cell, _ b: PlanMapping.Cell) {
        let dx = b.x - a.x, dy = b.y - a.y
        let steps = max(abs(dx), abs(dy))
        if steps == 0 {
            links[a, default: []].formUnion([.left, .right])
            return
        }
        let horizontal = abs(dy) * 3 <= abs(dx)
        let vertical = abs(dx) * 3 <= abs(dy)
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let cell = PlanMapping.Cell(x: a.x + Int((Double(dx) * t).rounded()), y: a.y + Int((Double(dy) * t).rounded()))
            var here: Links = []
            if horizontal {
                if step > 0 { here.insert(dx > 0 ? .left : .right) }
                if step < steps { here.insert(dx > 0 ? .right : .left) }
            } else if vertical {
                if step > 0 { here.insert(dy > 0 ? .up : .down) }
                if step < steps { here.insert(dy > 0 ? .down : .up) }
            } else {
                // Screen rows grow downwards: x and y growing together is a falling stroke.
                here.insert((dx > 0) == (dy > 0) ? .falling : .rising)
            }
            links[cell, default: []].formUnion(here)
        }
    }

    /// Every wall cell and its glyph.
    var glyphs: [(cell: PlanMapping.Cell, glyph: Character)] {
        links.map { cell, links in (cell, glyph(links)) }.sorted { ($0.cell.y, $0.cell.x) < ($1.cell.y, $1.cell.x) }
    }

    private func glyph(_ links: Links) -> Character {
        let straight = links.subtracting([.rising, .falling])
        if straight.isEmpty {
            if links == .rising { return charset.isUnicode ? "╱" : "/" }
            if links == .falling { return charset.isUnicode ? "╲" : "\\" }
            return charset.isUnicode ? "╳" : "X"
        }
        if charset == .ascii {
            if straight.isSubset(of: [.left, .right]) { return "-" }
            if straight.isSubset(of: [.up, .down]) { return "|" }
            return "+"
        }
        switch straight {
        case [.left], [.right], [.left, .right]: return "─"
        case [.up], [.down], [.up, .down]: return "│"
        case [.right, .down]: return "┌"
        case [.left, .down]: return "┐"
        case [.right, .up]: return "└"
        case [.left, .up]: return "┘"
        case [.left, .right, .down]: return "┬"
        case [.left, .right, .up]: return "┴"
        case [.up, .down, .right]: return "├"
        case [.up, .down, .left]: return "┤"
        default: return "┼"
        }
    }
}
