import Ranging
import Survey

/// What the survey screen's floor plan shows: the plan, where the technician says they stand, and
/// the samples taken so far with their coverage.
public struct SurveyPlanModel: Sendable, Equatable {
    public var plan: SurveyPlan
    public var cursor: FloorPosition
    public var samples: [SurveySample]
    /// One per sample, in the same order.
    public var coverage: [SpotCoverage]

    public init(plan: SurveyPlan, cursor: FloorPosition, samples: [SurveySample], coverage: [SpotCoverage]) {
        self.plan = plan
        self.cursor = cursor
        self.samples = samples
        self.coverage = coverage
    }

    /// A session's plan and samples, their coverage under `rule`.
    public init(session: SurveySession, cursor: FloorPosition, rule: CoverageRule = CoverageRule()) {
        self.init(plan: session.plan, cursor: cursor, samples: session.samples, coverage: session.coverage(rule: rule))
    }
}

/// Draws the floor plan into a rectangle of the screen buffer: a pure function of the model, as
/// every view. The plan's box (`PlanFrame`, cursor included) is scaled to fit, a cell counted
/// twice as tall as wide so distances look right; y is up.
///
/// Roles: walls `.muted` (box-drawing lines); each sample's cell by the strongest beacon's median,
/// `.immediate` at -60 dBm or more, `.near` to -70, `.far` to the coverage threshold, with a denser
/// shade for a stronger level; `?` in `.nearest` where the nearest exhibit is ambiguous; `×` in
/// `.warning` where no beacon reaches the threshold; beacons by their letter (A, B...) in
/// `.columnHeader`, or in the style of a sample taken in their cell; the cursor `.selected`, over
/// whatever is beneath it.
public enum SurveyPlanView {
    public struct Area: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// One mark on the plan: its glyph and role, a few words for the legend line under the plan,
    /// and a sentence for the survey's help page (`h`).
    public struct Mark: Sendable, Equatable {
        public var glyph: Character
        public var role: StyleRole
        public var meaning: String
        public var explanation: String
    }

    /// What each mark means, for the survey screen's legend and help page. The weakest shade's
    /// band ends at the coverage threshold, given in dBm (it said "threshold", which a technician
    /// had to look up).
    public static func legend(charset: Charset, rule: CoverageRule = CoverageRule()) -> [Mark] {
        let shades = shadeGlyphs(charset)
        let threshold = CellFormat.fixed(rule.threshold, decimals: 0)
        let margin = CellFormat.fixed(rule.ambiguityMargin, decimals: 0)
        return [
            Mark(glyph: shades[0], role: .immediate, meaning: "-60 dBm or more",
                 explanation: "a sample whose strongest beacon is heard at -60 dBm or more"),
            Mark(glyph: shades[1], role: .near, meaning: "-60 to -70",
                 explanation: "a sample whose strongest beacon is heard at -60 to -70 dBm"),
            Mark(glyph: shades[2], role: .far, meaning: "-70 to \(threshold)",
                 explanation: "a sample whose strongest beacon is heard at -70 to \(threshold) dBm, the coverage threshold"),
            Mark(glyph: "?", role: .nearest, meaning: "ambiguous",
                 explanation: "a sample where the nearest exhibit is ambiguous: two are within \(margin) dB"),
            Mark(glyph: noCoverageGlyph(charset), role: .warning, meaning: "no coverage",
                 explanation: "a sample where no beacon reaches \(threshold) dBm: no coverage"),
            Mark(glyph: "A", role: .columnHeader, meaning: "beacon",
                 explanation: "a beacon, lettered in the catalog's order; a sample taken at it colours its letter"),
        ]
    }

    /// The whole screen given to the plan (for tests and a first survey screen).
    public static func render(_ model: SurveyPlanModel, size: ScreenSize, charset: Charset = .unicode) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: size.columns, height: size.lines, charset: charset)
        draw(model, into: &buffer, area: Area(x: 0, y: 0, width: size.columns, height: size.lines))
        return buffer
    }

    public static func draw(_ model: SurveyPlanModel, into buffer: inout ScreenBuffer, area: Area) {
        guard area.width >= 2, area.height >= 2 else { return }
        let mapping = PlanMapping(frame: PlanFrame(plan: model.plan, samples: model.samples, extra: [model.cursor]), area: area)
        var walls = WallRaster(charset: buffer.charset)
        for segment in model.plan.wallSegments { walls.add(mapping.cell(segment.from), mapping.cell(segment.to)) }
        for (cell, glyph) in walls.glyphs { buffer.put(glyph, x: cell.x, y: cell.y, role: .muted) }

        let shades = shadeGlyphs(buffer.charset)
        var sampled: [PlanMapping.Cell: StyleRole] = [:]
        for (sample, coverage) in zip(model.samples, model.coverage) {
            let cell = mapping.cell(sample.spot)
            let mark: (glyph: Character, role: StyleRole)
            switch coverage.status {
            case .noCoverage:
                mark = (noCoverageGlyph(buffer.charset), .warning)
            case .ambiguous:
                mark = ("?", .nearest)
            case .covered:
                let median = coverage.strongest?.median ?? -.infinity
                let band = median >= -60 ? 0 : (median >= -70 ? 1 : 2)
                mark = (shades[band], [StyleRole.immediate, .near, .far][band])
            }
            buffer.put(mark.glyph, x: cell.x, y: cell.y, role: mark.role)
            sampled[cell] = mark.role
        }
        for (index, beacon) in model.plan.beacons.enumerated() {
            guard let position = beacon.position else { continue }
            let cell = mapping.cell(position)
            // A label longer than one letter (the 27th beacon on) is written from its cell. Over a
            // sample (technicians check a beacon standing at it) the letter takes the sample's style,
            // so the sample still shows.
            buffer.write(SurveyPlan.label(index), x: cell.x, y: cell.y, role: sampled[cell] ?? .columnHeader, limit: area.x + area.width - cell.x)
        }
        let cursor = mapping.cell(model.cursor)
        let beneath = buffer[cursor.x, cursor.y].character
        buffer.put(beneath == " " ? "+" : beneath, x: cursor.x, y: cursor.y, role: .selected)
    }

    /// The floor spot under a screen cell (a mouse click), nil outside the area.
    public static func position(atColumn column: Int, row: Int, _ model: SurveyPlanModel, area: Area) -> FloorPosition? {
        guard area.width >= 2, area.height >= 2, column >= area.x, column < area.x + area.width, row >= area.y, row < area.y + area.height
        else { return nil }
        let mapping = PlanMapping(frame: PlanFrame(plan: model.plan, samples: model.samples, extra: [model.cursor]), area: area)
        return mapping.position(column: column, row: row)
    }

    static func shadeGlyphs(_ charset: Charset) -> [Character] {
        switch charset {
        case .unicode: ["█", "▓", "▒"]
        case .linuxConsole: ["█", "▒", "░"] // its fonts have no ▓
        case .ascii: ["#", "=", "-"]
        }
    }

    static func noCoverageGlyph(_ charset: Charset) -> Character { charset.isUnicode ? "×" : "x" }
}

/// Metres to cells: one scale for both axes, a row counted as two columns (a terminal cell is
/// about twice as tall as it is wide), the box centred in the area.
struct PlanMapping {
    struct Cell: Hashable {
        var x: Int
        var y: Int
    }

    let frame: PlanFrame
    let area: SurveyPlanView.Area
    /// Columns per metre; rows per metre is half.
    let scale: Double
    let left: Double
    let top: Double

    init(frame: PlanFrame, area: SurveyPlanView.Area) {
        self.frame = frame
        self.area = area
        scale = min(Double(area.width - 1) / frame.width, 2 * Double(area.height - 1) / frame.height)
        left = Double(area.x) + (Double(area.width - 1) - frame.width * scale) / 2
        top = Double(area.y) + (Double(area.height - 1) - frame.height * scale / 2) / 2
    }

    /// The inverse of `cell`: the spot at the centre of a cell.
    func position(column: Int, row: Int) -> FloorPosition {
        FloorPosition(x: frame.minX + (Double(column) - left) / scale, y: frame.maxY - (Double(row) - top) * 2 / scale)
    }

    func cell(_ point: FloorPosition) -> Cell {
        // Clamped before converting: a far-off or non-finite point must land on the edge, not trap.
        func whole(_ value: Double, _ fallback: Int) -> Int {
            value.isFinite ? Int(min(max(value, -1e6), 1e6).rounded()) : fallback
        }
        let column = whole(left + (point.x - frame.minX) * scale, area.x)
        let row = whole(top + (frame.maxY - point.y) * scale / 2, area.y)
        return Cell(
            x: min(max(column, area.x), area.x + area.width - 1),
            y: min(max(row, area.y), area.y + area.height - 1)
        )
    }
}
