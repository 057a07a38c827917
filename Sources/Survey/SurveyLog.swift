import Foundation

/// The survey file: NDJSON, one `survey` line (version, start time, catalog path, the plan), then
/// one `sample` line per sample in the order taken (docs/survey.md "The survey file"). A sample is
/// appended as one line when it is taken, so a survey that stops half way keeps every sample
/// finished before, and resumes from there.
public enum SurveyLog {
    public static let version = 1
    /// Longer lines are refused rather than parsed: no real sample comes near (a thousand beacons'
    /// readings are about 200 KB).
    public static let longestLine = 4 << 20
    /// The highest sample index a file may hold: far past any survey (a sample a second for 31
    /// years), and the next one's number still fits, in JSON readers' doubles too.
    public static let largestIndex = 1_000_000_000

    struct Header: Codable {
        var version: Int
        var created: Double
        var catalog: String?
        var plan: SurveyPlan
    }

    private struct LineType: Decodable {
        var type: String
    }

    /// A body with `"type"` written beside its own keys.
    private struct Tagged<Body: Encodable>: Encodable {
        var type: String
        var body: Body

        enum Key: String, CodingKey { case type }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(type, forKey: .type)
            try body.encode(to: encoder)
        }
    }

    private static func line(_ value: some Encodable, type: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of numbers and strings cannot fail; non-finite numbers are refused
        // by the decoder's checks and never reach a sample.
        let data = (try? encoder.encode(Tagged(type: type, body: value))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The first line of a survey file.
    public static func headerLine(_ session: SurveySession) -> String {
        line(Header(version: version, created: session.created, catalog: session.catalogPath, plan: session.plan), type: "survey")
    }

    /// One sample's line.
    public static func sampleLine(_ sample: SurveySample) -> String {
        line(sample, type: "sample")
    }

    /// A whole survey file.
    public static func encode(_ session: SurveySession) -> String {
        session.samples.reduce(headerLine(session)) { $0 + sampleLine($1) }
    }

    /// Loads a survey file; the error names the file, the line and the field. Reading only.
    public static func load(path: String) throws(SurveyFileError) -> SurveySession {
        // Opened here for its errno: Foundation said "cannot read: The operation could not be
        // completed. The file doesn't exist." where every other file beacontop reads says the
        // system's words (a catalog's since 13ab7d7).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SurveyFileError(path: path, reason: String(cString: strerror(errno))) }
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
        } catch {
            throw SurveyFileError(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        do {
            return try decode(data)
        } catch {
            var located = error
            located.path = path
            throw located
        }
    }

    /// Parses a survey file's bytes.
    public static func decode(_ data: Data) throws(SurveyFileError) -> SurveySession {
        let bytes = [UInt8](data)
        var session: SurveySession?
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            lineNumber += 1
            let isLast = end == bytes.count
            var line = bytes[start..<end]
            start = end + 1
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                try parse(line, into: &session)
            } catch {
                var located = error
                located.line = lineNumber
                if isLast, bytes.last != 0x0A {
                    located.reason += " (the last line is cut short: the survey may have stopped while writing it)"
                }
                throw located
            }
        }
        guard let session else {
            throw SurveyFileError(line: 1, reason: "empty: a survey file starts with a \"survey\" line")
        }
        return session
    }

    private static func parse(_ line: ArraySlice<UInt8>, into session: inout SurveySession?) throws(SurveyFileError) {
        guard line.count <= longestLine else {
            throw SurveyFileError(reason: "longer than \(longestLine >> 20) MB: not a survey line")
        }
        guard String(validating: line, as: UTF8.self) != nil else {
            throw SurveyFileError(reason: "not UTF-8 text")
        }
        let data = Data(line)
        let type = try decode(LineType.self, from: data).type
        switch (type, session) {
        case ("survey", nil):
            let header = try decode(Header.self, from: data)
            guard header.version <= version else {
                throw SurveyFileError(field: "version", reason: "\(header.version) is newer than this beacontop reads (\(version))")
            }
            try SurveyLogCheck.plan(header.plan)
            try SurveyLogCheck.finite(header.created, "created")
            session = SurveySession(plan: header.plan, created: header.created, catalogPath: header.catalog)
        case ("survey", _?):
            throw SurveyFileError(field: "type", reason: "a second \"survey\" line: two surveys joined into one file?")
        case ("sample", nil), (_, nil):
            throw SurveyFileError(field: "type", reason: "\"\(type)\" before the \"survey\" line: a survey file starts with one")
        case ("sample", var current?):
            let sample = try decode(SurveySample.self, from: data)
            try SurveyLogCheck.sample(sample, after: current.samples.last?.index)
            current.appendLoaded(sample)
            session = current
        default:
            throw SurveyFileError(field: "type", reason: "unknown line type \"\(type)\"; expected \"sample\"")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SurveyFileError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw SurveyLogCheck.explain(error)
        } catch {
            throw SurveyFileError(reason: "\(error)")
        }
    }
}

extension SurveySession {
    /// A sample read back from a file, keeping its index.
    mutating func appendLoaded(_ sample: SurveySample) {
        samples.append(sample)
    }
}
