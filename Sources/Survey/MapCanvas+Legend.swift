extension MapCanvas {
    /// The legend on the right: the colour scale with its unit and the coverage threshold, what
    /// each mark means, and the beacons by letter.
    mutating func legend(rule: CoverageRule, overview: Bool) {
        let left = Self.legendLeft
        var group = "<g id=\"legend\">"
        group += "<defs><linearGradient id=\"rssi-scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        for stop in 0...8 {
            let fraction = Double(stop) / 8
            group += "<stop offset=\"\(n(fraction * 100))%\" stop-color=\"\(ColorScale.color(atFraction: fraction))\"/>"
        }
        group += "</linearGradient></defs>"
        let caption = overview ? "Strongest beacon, median RSSI" : "Median RSSI at the spot"
        group += SVGDocument.label(caption, x: left, y: Self.planTop + 4, size: 14, weight: "bold")
        group += SVGDocument.label("dBm (received signal strength)", x: left, y: Self.planTop + 22, size: 12, fill: "#555")
        let barTop = Self.planTop + 36, barHeight = 220.0, barWidth = 22.0
        group += "<rect class=\"color-scale\" x=\"\(n(left))\" y=\"\(n(barTop))\" width=\"\(n(barWidth))\" height=\"\(n(barHeight))\" fill=\"url(#rssi-scale)\" stroke=\"#888\"/>"
        func level(_ dBm: Double) -> Double { barTop + (1 - ColorScale.fraction(dBm)) * barHeight }
        var tick = ColorScale.high
        while tick >= ColorScale.low {
            let ty = level(tick)
            group += "<path d=\"M\(n(left + barWidth)) \(n(ty))h6\" stroke=\"#555\"/>"
            group += SVGDocument.label("\(n(tick, 0)) dBm", x: left + barWidth + 10, y: ty + 4, size: 12, fill: "#333")
            tick -= 10
        }
        let threshold = level(rule.threshold)
        group += "<path class=\"threshold\" d=\"M\(n(left - 6)) \(n(threshold))H\(n(left + barWidth + 4))\" stroke=\"#e03131\" stroke-width=\"2.5\"/>"
        group += SVGDocument.label("coverage threshold", x: left + barWidth + 80, y: threshold - 2, size: 11, fill: "#c92a2a")
        group += SVGDocument.label("\(n(rule.threshold, 0)) dBm", x: left + barWidth + 80, y: threshold + 12, size: 11, fill: "#c92a2a")

        var y = barTop + barHeight + 34
        func row(_ mark: String, _ text: String) {
            group += "<g transform=\"translate(\(n(left + 11)) \(n(y)))\">\(mark)</g>"
            group += SVGDocument.label(text, x: left + 30, y: y + 4, size: 12)
            y += 24
        }
        row("<circle r=\"9\" fill=\"\(ColorScale.color(-65))\" stroke=\"#fff\"/>",
            overview ? "sample: strongest median; nearest exhibit" : "sample: median RSSI there")
        if overview {
            row("<circle r=\"9\" fill=\"none\" stroke=\"#f08c00\" stroke-width=\"3\"/>",
                "ambiguous: two exhibits within \(n(rule.ambiguityMargin)) dB")
            row("<path d=\"M-7 -7L7 7M7 -7L-7 7\" stroke=\"#e03131\" stroke-width=\"3\"/>", "no beacon at \(n(rule.threshold, 0)) dBm or more")
        } else {
            row("<circle r=\"8\" fill=\"#fff\" stroke=\"#8a8a8a\" stroke-dasharray=\"3 2\"/>", "sample: beacon not heard")
        }
        row("<path d=\"M0 -8L8 6H-8Z\" fill=\"#222\"/>", "beacon, by its letter (list below)")
        row("<path d=\"M-9 0H9\" stroke=\"#3a3a3a\" stroke-width=\"5\" stroke-linecap=\"round\"/>", "wall")
        row("<rect x=\"-9\" y=\"-7\" width=\"18\" height=\"14\" fill=\"\(ColorScale.color(-70))\" opacity=\"0.5\"/>",
            "shading: estimated between samples")

        y += 10
        group += SVGDocument.label("Beacons", x: left, y: y, size: 14, weight: "bold")
        y += 20
        for beacon in session.plan.beacons {
            let letter = labels[beacon.id] ?? "?"
            let place = beacon.position == nil ? " (no position)" : ""
            group += SVGDocument.label(letter, x: left, y: y, size: 12, weight: "bold")
            group += SVGDocument.label(SVGDocument.shortened(beacon.name, to: 40) + place, x: left + 30, y: y, size: 12)
            y += 18
        }
        // The beacons heard that the plan does not name have maps of their own (beacon-F.svg): their
        // letters are listed too, by id.
        for beacon in session.letters.dropFirst(session.plan.beacons.count) {
            group += SVGDocument.label(beacon.letter, x: left, y: y, size: 12, weight: "bold")
            group += SVGDocument.label(SVGDocument.shortened(beacon.id, to: 40) + " (not in the plan)", x: left + 30, y: y, size: 12)
            y += 18
        }
        document.add(group + "</g>")
        document.fit(bottom: y + 10)
    }

    func n(_ value: Double, _ decimals: Int) -> String { SVGDocument.number(value, decimals: decimals) }
}
