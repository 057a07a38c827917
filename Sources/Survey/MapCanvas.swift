import Foundation
import Ranging

/// Lays one map out: the plan scaled into a fixed box on the left, the legend on the right.
struct MapCanvas {
    static let width = 1040.0
    static let planLeft = 40.0
    static let planTop = 86.0
    static let planBox = (width: 620.0, height: 640.0)
    static let legendLeft = 700.0

    let session: SurveySession
    let frame: PlanFrame
    let scale: Double
    var document: SVGDocument
    /// Each beacon's letter (`SurveySession.letters`): the plan's in plan order, then those heard but
    /// not in the plan.
    let labels: [String: String]

    init(session: SurveySession) {
        self.session = session
        frame = PlanFrame(plan: session.plan, samples: session.samples, margin: 1)
        scale = min(Self.planBox.width / frame.width, Self.planBox.height / frame.height)
        let planHeight = frame.height * scale
        document = SVGDocument(width: Self.width, height: Self.planTop + planHeight + 70)
        labels = Dictionary(session.letters.map { ($0.id, $0.letter) }, uniquingKeysWith: { first, _ in first })
        // The white page: as high as the legend makes the picture (rsvg draws no background).
        document.add("<rect class=\"background\" x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        document.add("<rect class=\"floor\" x=\"\(n(Self.planLeft))\" y=\"\(n(Self.planTop))\" width=\"\(n(frame.width * scale))\" height=\"\(n(planHeight))\" fill=\"#f6f5f1\" stroke=\"#b8b8b8\"/>")
        grid()
    }

    func n(_ value: Double) -> String { SVGDocument.number(value) }
    func x(_ metres: Double) -> Double { Self.planLeft + (metres - frame.minX) * scale }
    func y(_ metres: Double) -> Double { Self.planTop + (frame.maxY - metres) * scale }

    mutating func title(_ title: String, subtitle: String) {
        document.add(SVGDocument.label(title, x: Self.planLeft, y: 34, size: 22, weight: "bold", className: "title"))
        document.add(SVGDocument.label(subtitle, x: Self.planLeft, y: 60, size: 13, fill: "#555"))
    }

    /// Lines every 1, 2 or 5 times a power of ten metres (about 12 across), and a scale bar under the plan.
    private mutating func grid() {
        guard let step = Self.gridStep(max(frame.width, frame.height)) else { return }
        var path = ""
        for line in Self.gridLines(frame.minX, frame.maxX, step: step) {
            path += "M\(n(x(line))) \(n(y(frame.maxY)))V\(n(y(frame.minY)))"
        }
        for line in Self.gridLines(frame.minY, frame.maxY, step: step) {
            path += "M\(n(x(frame.minX))) \(n(y(line)))H\(n(x(frame.maxX)))"
        }
        document.add("<path class=\"grid\" d=\"\(path)\" stroke=\"#e2e0da\" stroke-width=\"1\" fill=\"none\"/>")
        let barY = y(frame.minY) + 26
        let barEnd = Self.planLeft + step * scale
        document.add("<path class=\"scale-bar\" d=\"M\(n(Self.planLeft)) \(n(barY - 6))V\(n(barY))H\(n(barEnd))V\(n(barY - 6))\" stroke=\"#333\" stroke-width=\"1.5\" fill=\"none\"/>")
        document.add(SVGDocument.label("\(n(step)) m (grid \(n(step)) m)", x: barEnd + 8, y: barY, size: 12, fill: "#333"))
    }

    /// The grid's spacing for a plan `extent` metres across: the smallest of 1, 2 and 5 times a
    /// power of ten, at least 1 m, with at most 16 steps across (1 to 100 m on any floor up to
    /// 1.6 km). nil when the extent is not finite. The list stopped at 100 m: a survey file with a
    /// wall at 1.8e31 m drew 10^29 lines, and past 2^53 m adding the step no longer moved the line
    /// (fuzz-survey).
    static func gridStep(_ extent: Double) -> Double? {
        guard extent.isFinite, extent > 0 else { return nil }
        let least = extent / 16
        guard least > 1 else { return 1 }
        let decade = pow(10, log10(least).rounded(.down))
        return [1.0, 2, 5, 10].lazy.map { $0 * decade }.first { $0 >= least } ?? 10 * decade
    }

    /// Multiples of `step` from `low` to `high`, counted (at most 64), not stepped.
    static func gridLines(_ low: Double, _ high: Double, step: Double) -> [Double] {
        let first = (low / step).rounded(.up), last = (high / step).rounded(.down)
        guard first.isFinite, last.isFinite, last >= first else { return [] }
        return (0...Int(min(last - first, 64))).map { (first + Double($0)) * step }
    }

    /// The interpolated shading, cells of equal colour (2 dB steps) merged along each row.
    mutating func field(_ points: [(FloorPosition, Double)]) {
        guard !points.isEmpty else { return }
        let field = CoverageField(points: points.map { (spot: $0.0, value: $0.1) }, frame: frame, walls: session.plan.wallSegments)
        var cells = ""
        let size = field.cellSize * scale
        for row in 0..<field.rows {
            var column = 0
            while column < field.columns {
                guard let value = field.value(column: column, row: row) else {
                    column += 1
                    continue
                }
                let step = (value / 2).rounded() * 2
                var run = 1
                while column + run < field.columns, let next = field.value(column: column + run, row: row), (next / 2).rounded() * 2 == step { run += 1 }
                let left = Self.planLeft + Double(column) * size
                let top = Self.planTop + Double(row) * size
                cells += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(Double(run) * size + 0.4))\" height=\"\(n(size + 0.4))\" fill=\"\(ColorScale.color(step))\"/>"
                column += run
            }
        }
        document.add("<g class=\"field\" opacity=\"0.5\">\(cells)</g>")
    }

    mutating func walls() {
        for segment in session.plan.wallSegments {
            document.add("<line class=\"wall\" x1=\"\(n(x(segment.from.x)))\" y1=\"\(n(y(segment.from.y)))\" x2=\"\(n(x(segment.to.x)))\" y2=\"\(n(y(segment.to.y)))\" stroke=\"#3a3a3a\" stroke-width=\"5\" stroke-linecap=\"round\"/>")
        }
    }

    /// A triangle per positioned beacon with its letter; the highlighted one larger, with its name.
    mutating func beacons(highlight: String?) {
        for beacon in session.plan.beacons {
            guard let position = beacon.position, let label = labels[beacon.id] else { continue }
            let focus = beacon.id == highlight
            let size = focus ? 13.0 : 9.0
            let (cx, cy) = (x(position.x), y(position.y))
            let fill = focus ? "#d6336c" : (highlight == nil ? "#222" : "#8a8a8a")
            var group = "<g class=\"beacon\(focus ? " focus" : "")\">"
            group += "<path d=\"M\(n(cx)) \(n(cy - size))L\(n(cx + size)) \(n(cy + size * 0.75))H\(n(cx - size))Z\" fill=\"\(fill)\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
            // The label sits on a white halo, legible over samples and shading.
            let name = focus ? "\(label) \(SVGDocument.shortened(beacon.name, to: 28))" : label
            group += SVGDocument.label(name, x: cx + size + 3, y: cy - size * 0.35, size: focus ? 15 : 14, weight: "bold", fill: fill, halo: true)
            document.add(group + "</g>")
        }
    }

    /// Draws the samples (`draw` each index) and the beacons in layers: samples first, the beacons
    /// over them (their letters stay legible), then the samples whose disc holds a beacon, over it.
    /// A sample taken standing at a beacon, the check of its placement, would otherwise lose its
    /// value under the triangle; the beacon's letter, beside its triangle, still shows.
    mutating func layered(_ indices: Range<Int>, highlight: String?, draw: (inout MapCanvas, Int) -> Void) {
        let beaconSpots = session.plan.beacons.compactMap(\.position).map { (x($0.x), y($0.y)) }
        let onBeacon = Set(indices.filter { index in
            let (cx, cy) = (x(session.samples[index].x), y(session.samples[index].y))
            return beaconSpots.contains { ($0.0 - cx) * ($0.0 - cx) + ($0.1 - cy) * ($0.1 - cy) < 12 * 12 }
        })
        for index in indices where !onBeacon.contains(index) { draw(&self, index) }
        beacons(highlight: highlight)
        for index in indices where onBeacon.contains(index) { draw(&self, index) }
    }

    /// A disc coloured by `value` with `label` in it; an empty ring where the beacon was not heard.
    /// In the overview, an orange ring and `?` mark an ambiguous spot, a red cross one without coverage.
    mutating func sample(_ sample: SurveySample, value: Double?, label: String, status: SpotCoverage.Status?) {
        let (cx, cy) = (x(sample.x), y(sample.y))
        let kind = status.map { " \($0.rawValue)" } ?? (value == nil ? " not-heard" : "")
        var group = "<g class=\"sample\(kind)\" data-index=\"\(sample.index)\">"
        if let value {
            let fill = ColorScale.color(value)
            let ink = ColorScale.fraction(value) > 0.55 ? "#1a1a1a" : "#ffffff"
            group += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"12\" fill=\"\(fill)\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
            group += SVGDocument.label(label, x: cx, y: cy + 4, size: 10, anchor: "middle", weight: "bold", fill: ink)
        } else {
            group += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"11\" fill=\"#ffffff\" stroke=\"#8a8a8a\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>"
            group += SVGDocument.label(label, x: cx, y: cy + 4, size: 10, anchor: "middle", fill: "#8a8a8a")
        }
        switch status {
        case .ambiguous:
            group += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"16\" fill=\"none\" stroke=\"#f08c00\" stroke-width=\"3\"/>"
            group += SVGDocument.label("?", x: cx + 14, y: cy - 11, size: 14, weight: "bold", fill: "#d9480f")
        case .noCoverage:
            group += "<path d=\"M\(n(cx - 9)) \(n(cy - 9))L\(n(cx + 9)) \(n(cy + 9))M\(n(cx + 9)) \(n(cy - 9))L\(n(cx - 9)) \(n(cy + 9))\" stroke=\"#e03131\" stroke-width=\"3\"/>"
        case .covered, nil:
            break
        }
        document.add(group + "</g>")
    }
}
