import NDJSON

/// Writes a run's ground truth as NDJSON (one JSON object per line), the file `simulate` puts
/// beside its capture (`FILE.truth.ndjson`). See docs/formats.md "Ground-truth file".
///
/// Line 1, the header: `{"scenario": title, "seed": N, "start": t0, "duration": s,
/// "beacons": [{"id", "name", "address", "position": [x, y], "measuredPower", "powerAt1m",
/// "pathLossExponent", "interval"}], "stays": [{"id", "start", "end"}]}`.
/// Every further line, a sample: `{"t": unix, "position": [x, y], "heading": degrees,
/// "visiting": id or null, "nearest": id, "distances": {id: metres}}`.
/// Numbers are rounded to 3 decimals (headings to 1), trailing zeros dropped.
public enum TruthFileEncoder {
    public static func header(scenario: Scenario, truths: [BeaconRadioTruth], seed: UInt64,
                              duration: Double, stays: [Stay]) -> String {
        var w = JSONWriter()
        w.raw("{\"scenario\":")
        w.string(scenario.title)
        w.raw(",\"seed\":")
        w.unsigned(seed)
        w.raw(",\"start\":")
        w.number(scenario.startTime, decimals: 3)
        w.raw(",\"duration\":")
        w.number(duration, decimals: 3)
        w.raw(",\"beacons\":[")
        for (index, beacon) in scenario.beacons.enumerated() {
            let truth = truths.indices.contains(index)
                ? truths[index] : BeaconRadioTruth(powerAt1m: Double(beacon.frame.measuredPower), pathLossExponent: 2)
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"id\":")
            w.string(beacon.identity.description)
            w.raw(",\"name\":")
            w.string(beacon.name)
            w.raw(",\"address\":")
            w.string(beacon.address.description)
            w.raw(",\"position\":")
            point(beacon.position, to: &w)
            w.raw(",\"measuredPower\":")
            w.integer(Int(beacon.frame.measuredPower))
            w.raw(",\"powerAt1m\":")
            w.number(truth.powerAt1m, decimals: 2)
            w.raw(",\"pathLossExponent\":")
            w.number(truth.pathLossExponent, decimals: 3)
            w.raw(",\"interval\":")
            w.number(beacon.advertisingInterval, decimals: 3)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("],\"stays\":[")
        for (index, stay) in stays.enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"id\":")
            w.string(scenario.beacons[stay.beaconIndex].identity.description)
            w.raw(",\"start\":")
            w.number(stay.start, decimals: 3)
            w.raw(",\"end\":")
            w.number(stay.end, decimals: 3)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("]}")
        return w.text
    }

    public static func line(_ sample: TruthSample, scenario: Scenario) -> String {
        let ids = scenario.beacons.map { $0.identity.description }
        var w = JSONWriter()
        w.raw("{\"t\":")
        w.number(sample.time, decimals: 3)
        w.raw(",\"position\":")
        point(sample.position, to: &w)
        w.raw(",\"heading\":")
        w.number(sample.heading.angleDegrees, decimals: 1)
        w.raw(",\"visiting\":")
        if let visiting = sample.visiting { w.string(ids[visiting]) } else { w.null() }
        w.raw(",\"nearest\":")
        if ids.indices.contains(sample.nearest) { w.string(ids[sample.nearest]) } else { w.null() }
        w.raw(",\"distances\":{")
        for (index, (id, distance)) in zip(ids, sample.distances).enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.string(id)
            w.byte(UInt8(ascii: ":"))
            w.number(distance, decimals: 3)
        }
        w.raw("}}")
        return w.text
    }

    private static func point(_ point: Point2D, to w: inout JSONWriter) {
        w.byte(UInt8(ascii: "["))
        w.number(point.x, decimals: 3)
        w.byte(UInt8(ascii: ","))
        w.number(point.y, decimals: 3)
        w.byte(UInt8(ascii: "]"))
    }
}
