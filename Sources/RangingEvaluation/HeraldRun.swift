import Foundation

/// One run of the HERALD robot rig (`shared/data/herald/*.csv`, recorded by the Herald project, not
/// here): a phone moved away from another in steps, every received RSSI with the true distance at
/// that moment. Columns `time,rssi,distance`: UTC `yyyy-MM-dd HH:mm:ss`, dBm, centimetres.
public struct HeraldRun: Sendable {
    public struct Sample: Sendable, Equatable {
        /// Unix seconds (whole seconds: the files are stamped to the second).
        public var time: Double
        public var rssi: Double
        /// True distance, metres.
        public var distance: Double
    }

    /// The file name without `.csv`, e.g. `20210112-2303-B`.
    public var name: String
    /// In file order, which is time order.
    public var samples: [Sample]

    public init(name: String, samples: [Sample]) {
        self.name = name
        self.samples = samples
    }

    /// What a technician calibrating at 1 m gets: the median RSSI of the run's samples at 100 cm
    /// (the protocol). Nil when the run has none.
    public var measuredPowerAtOneMetre: Double? {
        median(samples.lazy.filter { abs($0.distance - 1) < 0.0005 }.map(\.rssi))
    }

    /// The median RSSI of the samples at `distance` metres (to the centimetre), for a second
    /// calibration point; nil when the rig never stood there.
    public func medianRSSI(at distance: Double) -> Double? {
        median(samples.lazy.filter { abs($0.distance - distance) < 0.0005 }.map(\.rssi))
    }

    /// The farthest distance the rig reached (m).
    public var farthest: Double { samples.map(\.distance).max() ?? 0 }

    /// Reads a run file. Lines that do not parse are counted, not fatal (a header, a torn last line).
    public init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        var samples: [Sample] = []
        samples.reserveCapacity(text.utf8.count / 30)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: ",")
            guard fields.count == 3, let time = Self.unixTime(fields[0]),
                  let rssi = Double(fields[1]), let centimetres = Double(fields[2].trimmingCharacters(in: .whitespaces)) else { continue }
            samples.append(Sample(time: time, rssi: rssi, distance: centimetres / 100))
        }
        guard !samples.isEmpty else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.init(name: url.deletingPathExtension().lastPathComponent, samples: samples)
    }

    /// Every `*.csv` run in `directory`, sorted by name.
    public static func loadAll(directory: URL) throws -> [HeraldRun] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".csv") }.sorted()
        return try names.map { try HeraldRun(contentsOf: directory.appendingPathComponent($0)) }
    }

    /// `yyyy-MM-dd HH:mm:ss` (UTC) to Unix seconds, by the civil-from-days arithmetic (Hinnant):
    /// a DateFormatter costs more than the rest of the evaluation's parsing together.
    static func unixTime(_ text: Substring) -> Double? {
        let digits = Array(text.utf8)
        guard digits.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let d = Int(digits[index]) - 48
                guard (0...9).contains(d) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }
}

/// The median of some values (mean of the middle two for an even count); nil for none.
func median<S: Sequence>(_ values: S) -> Double? where S.Element == Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
