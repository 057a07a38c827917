/// Writes a run's ground truth as NDJSON (one JSON object per line), the file `simulate` puts
/// beside its capture (`FILE.truth.ndjson`). See docs/formats.md "Ground-truth file".
///
/// Line 1, the header: `{"scenario": title, "seed": N, "start": t0, "duration": s,
/// "beacons": [{"id", "name", "address", "position": [x, y], "measuredPower", "powerAt1m",
/// "pathLossExponent", "interval"}], "stays": [{"id", "start", "end"}]}`.
/// Every further line, a sample: `{"t": unix, "position": [x, y], "heading": degrees,
/// "visiting": id or null, "nearest": id, "distances": {id: metres}}`.
public enum TruthFileEncoder {
    public static func header(scenario: Scenario, truths: [BeaconRadioTruth], seed: UInt64,
                              duration: Double, stays: [Stay]) -> String {
        let beacons = scenario.beacons.enumerated().map { i, b in
            let truth = truths.indices.contains(i) ? truths[i] : BeaconRadioTruth(powerAt1m: Double(b.frame.measuredPower), pathLossExponent: 2)
            return "{\"id\":\(quote(b.identity.description)),\"name\":\(quote(b.name)),\"address\":\(quote(b.address.description)),"
                + "\"position\":[\(number(b.position.x)),\(number(b.position.y))],\"measuredPower\":\(b.frame.measuredPower),"
                + "\"powerAt1m\":\(number(truth.powerAt1m, places: 2)),\"pathLossExponent\":\(number(truth.pathLossExponent)),"
                + "\"interval\":\(number(b.advertisingInterval))}"
        }
        let stayList = stays.map { s in
            "{\"id\":\(quote(scenario.beacons[s.beaconIndex].identity.description)),\"start\":\(number(s.start)),\"end\":\(number(s.end))}"
        }
        return "{\"scenario\":\(quote(scenario.title)),\"seed\":\(seed),\"start\":\(number(scenario.startTime)),"
            + "\"duration\":\(number(duration)),\"beacons\":[\(beacons.joined(separator: ","))],"
            + "\"stays\":[\(stayList.joined(separator: ","))]}"
    }

    public static func line(_ sample: TruthSample, scenario: Scenario) -> String {
        let ids = scenario.beacons.map { $0.identity.description }
        let distances = zip(ids, sample.distances).map { "\(quote($0)):\(number($1))" }
        let visiting = sample.visiting.map { quote(ids[$0]) } ?? "null"
        let nearest = ids.indices.contains(sample.nearest) ? quote(ids[sample.nearest]) : "null"
        return "{\"t\":\(number(sample.time)),\"position\":[\(number(sample.position.x)),\(number(sample.position.y))],"
            + "\"heading\":\(number(sample.heading.angleDegrees, places: 1)),\"visiting\":\(visiting),"
            + "\"nearest\":\(nearest),\"distances\":{\(distances.joined(separator: ","))}}"
    }

    /// A JSON number rounded to `places` decimals (trailing zeros dropped by Double's printing).
    static func number(_ value: Double, places: Int = 3) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    /// A JSON string literal (RFC 8259 section 7 escapes).
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
