import Ranging

/// The checks a survey line must pass beyond parsing as JSON of the right shape, and the words for
/// a line that does not parse: what `SurveyLog.decode` throws, so a garbled or hostile line is
/// named, never half-loaded.
enum SurveyLogCheck {
    static func finite(_ value: Double, _ field: String) throws(SurveyFileError) {
        guard value.isFinite else { throw SurveyFileError(field: field, reason: "must be a finite number") }
    }

    /// A finite coordinate within `FloorPosition.largestCoordinate` of the origin.
    static func coordinate(_ value: Double, _ field: String) throws(SurveyFileError) {
        try finite(value, field)
        if let problem = FloorPosition.refusal(value) { throw SurveyFileError(field: field, reason: problem) }
    }

    static func plan(_ plan: SurveyPlan) throws(SurveyFileError) {
        for (index, beacon) in plan.beacons.enumerated() {
            guard !beacon.id.isEmpty else { throw SurveyFileError(field: "plan.beacons[\(index)].id", reason: "must not be empty") }
            guard (beacon.x == nil) == (beacon.y == nil) else {
                throw SurveyFileError(field: "plan.beacons[\(index)]", reason: "needs both x and y, or neither")
            }
            if let x = beacon.x { try coordinate(x, "plan.beacons[\(index)].x") }
            if let y = beacon.y { try coordinate(y, "plan.beacons[\(index)].y") }
        }
        for (index, wall) in plan.walls.enumerated() {
            guard wall.count >= 2, wall.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isFinite) }) else {
                throw SurveyFileError(field: "plan.walls[\(index)]", reason: "must be a list of at least two [x, y] points")
            }
            for (point, pair) in wall.enumerated() {
                for (axis, value) in pair.enumerated() { try coordinate(value, "plan.walls[\(index)][\(point)][\(axis)]") }
            }
        }
    }

    static func sample(_ sample: SurveySample, after previous: Int?) throws(SurveyFileError) {
        guard sample.index >= 1 else { throw SurveyFileError(field: "index", reason: "must be 1 or more") }
        // A hand-edited 9223372036854775807 loaded, and numbering the next sample overflowed: the
        // resumed survey crashed at its first sample, the terminal left raw.
        guard sample.index <= SurveyLog.largestIndex else {
            throw SurveyFileError(field: "index", reason: "\(sample.index) is more than \(SurveyLog.largestIndex): no survey takes that many samples")
        }
        if let previous, sample.index <= previous {
            throw SurveyFileError(field: "index", reason: "sample \(sample.index) after sample \(previous): samples are saved in order")
        }
        try coordinate(sample.x, "x")
        try coordinate(sample.y, "y")
        try finite(sample.start, "start")
        try finite(sample.end, "end")
        guard sample.end >= sample.start else { throw SurveyFileError(field: "end", reason: "before start") }
        for (index, reading) in sample.readings.enumerated() {
            let field = "readings[\(index)]"
            guard !reading.id.isEmpty else { throw SurveyFileError(field: "\(field).id", reason: "must not be empty") }
            guard reading.packets >= 1 else { throw SurveyFileError(field: "\(field).packets", reason: "must be 1 or more") }
            for (value, name) in [(reading.median, "median"), (reading.low, "low"), (reading.high, "high"), (reading.measuredPower, "measuredPower")] {
                try finite(value, "\(field).\(name)")
                guard value >= -128, value <= 127 else { throw SurveyFileError(field: "\(field).\(name)", reason: "\(value) dBm is not an RSSI") }
            }
            guard reading.low <= reading.median, reading.median <= reading.high else {
                throw SurveyFileError(field: field, reason: "low <= median <= high does not hold")
            }
            guard reading.exponent > 0, reading.exponent.isFinite else {
                throw SurveyFileError(field: "\(field).exponent", reason: "must be a positive number")
            }
            if let distance = reading.distance {
                guard distance >= 0, distance.isFinite else { throw SurveyFileError(field: "\(field).distance", reason: "must be a distance in metres") }
            }
        }
    }

    /// A `DecodingError` in the terms of the file: the field path and what was expected.
    static func explain(_ error: DecodingError) -> SurveyFileError {
        switch error {
        case .keyNotFound(let key, let context):
            return SurveyFileError(field: path(context.codingPath + [key]), reason: "missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            if context.codingPath.isEmpty { return SurveyFileError(reason: "not a JSON object (garbled line?)") }
            return SurveyFileError(field: path(context.codingPath), reason: "must be \(describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return SurveyFileError(reason: "not a JSON object (garbled line?)") }
            return SurveyFileError(field: path(context.codingPath), reason: "not readable: \(context.debugDescription)")
        @unknown default:
            return SurveyFileError(reason: "\(error)")
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "text"
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        default: "a \(type)"
        }
    }
}
