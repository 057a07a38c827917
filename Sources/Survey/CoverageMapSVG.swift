import Foundation
import Ranging

/// The survey report's pictures: one coverage map per beacon (each sample coloured by that
/// beacon's median RSSI there) and an overview (each sample coloured by the strongest beacon, with
/// the nearest exhibit's letter and marks where it is ambiguous or nothing reaches the
/// threshold). Each map shows the walls, the beacons, the samples, shading interpolated between
/// samples (`CoverageField`), a metre scale and a legend with the colour scale in dBm.
///
/// Every sample is one `<g class="sample ...">` and every positioned beacon one
/// `<g class="beacon ...">`; the legend is `<g id="legend">`, so tests (and anyone post-processing
/// the files) can find them.
public enum CoverageMapSVG {
    /// The map of one beacon.
    public static func beaconMap(_ session: SurveySession, beaconID: String, rule: CoverageRule = CoverageRule()) -> String {
        let name = session.plan.beacon(id: beaconID)?.name ?? beaconID
        let values: [Double?] = session.samples.map { $0.reading(id: beaconID)?.median }
        let heard = values.compactMap { $0 }.count
        var canvas = MapCanvas(session: session)
        canvas.title("Coverage of \(SVGDocument.shortened(name, to: 60))",
                     subtitle: subtitle(session, extra: "heard at \(heard) of \(session.samples.count) spots · \(SVGDocument.shortened(beaconID, to: 48))"))
        canvas.field(zip(session.samples, values).compactMap { sample, value in value.map { (sample.spot, $0) } })
        canvas.walls()
        canvas.layered(session.samples.indices, highlight: beaconID) { canvas, index in
            let value = values[index]
            canvas.sample(session.samples[index], value: value, label: value.map { SVGDocument.number($0, decimals: 0) } ?? "–", status: nil)
        }
        canvas.legend(rule: rule, overview: false)
        return canvas.document.text
    }

    /// The overview: the strongest beacon at each spot and the nearest-exhibit verdict.
    public static func overview(_ session: SurveySession, rule: CoverageRule = CoverageRule()) -> String {
        let coverage = session.coverage(rule: rule)
        let counts = Dictionary(grouping: coverage, by: \.status).mapValues(\.count)
        var canvas = MapCanvas(session: session)
        let summary = "\(counts[.covered] ?? 0) covered, \(counts[.ambiguous] ?? 0) ambiguous, \(counts[.noCoverage] ?? 0) without coverage"
        canvas.title("Coverage overview: strongest beacon at each spot", subtitle: subtitle(session, extra: summary))
        canvas.field(zip(session.samples, coverage).compactMap { sample, spot in spot.strongest.map { (sample.spot, $0.median) } })
        canvas.walls()
        canvas.layered(session.samples.indices, highlight: nil) { canvas, index in
            let spot = coverage[index]
            let letter = spot.nearest.flatMap { canvas.labels[$0] } ?? ""
            canvas.sample(session.samples[index], value: spot.strongest?.median, label: letter, status: spot.status)
        }
        canvas.legend(rule: rule, overview: true)
        return canvas.document.text
    }

    static func subtitle(_ session: SurveySession, extra: String) -> String {
        var parts: [String] = []
        if let title = session.plan.title { parts.append(SVGDocument.shortened(title, to: 50)) }
        parts.append(Self.date(session.created))
        parts.append(extra)
        return parts.joined(separator: " · ")
    }

    /// `2024-01-27 20:54 UTC`.
    static func date(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return "unknown date" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
