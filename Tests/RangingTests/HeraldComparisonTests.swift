import Foundation
import Testing
import TestFixtures
@testable import Ranging

/// Every filter on real RSSI against true distance (Herald project, Pixel 2 -> Pixel 3, 0-340 cm):
/// median distance error and tick-to-tick jitter, plus the reaction time on the scripted
/// 1 m -> 5 m step. The table is printed (docs/ranging.md "Filters" quotes it).
///
/// Calibration: P1m and n are fitted by least squares (`Calibration.pathLoss`) to all raw samples
/// with a distance above 0, and the same model is used for every filter, so the comparison is of
/// the filters alone. Ticks are the file's whole seconds; 0 cm rows are skipped.
@Suite(.onComputationThread) struct HeraldComparisonTests {
    struct Sample {
        var time: Double
        var rssi: Double
        var distance: Double
    }

    static func load() throws -> [Sample] {
        let text = try String(contentsOf: SharedData.heraldFile, encoding: .utf8)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var samples: [Sample] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 3, let date = formatter.date(from: String(fields[0])),
                  let rssi = Double(fields[1]), let centimetres = Double(fields[2]) else { continue }
            samples.append(Sample(time: date.timeIntervalSince1970, rssi: rssi, distance: centimetres / 100))
        }
        return samples
    }

    struct Score {
        var medianError: Double
        var jitter: Double
    }

    static func score(_ kind: RSSIFilterKind, samples: [Sample], power: Double, exponent: Double) -> Score {
        var filter = kind.makeFilter()
        var errors: [Double] = []
        var jitter: [Double] = []
        var previous: (distance: Double, truth: Double)?
        func tick(truth: Double, at time: Double) {
            guard truth > 0, let estimate = filter.estimate(at: time),
                  let distance = LogDistanceModel.distance(rssi: estimate, measuredPower: power, exponent: exponent) else { return }
            errors.append(abs(distance - truth))
            if let previous, previous.truth == truth { jitter.append(abs(distance - previous.distance)) }
            previous = (distance, truth)
        }
        for (index, sample) in samples.enumerated() {
            filter.add(sample.rssi, at: sample.time)
            if index + 1 == samples.count || samples[index + 1].time != sample.time {
                tick(truth: sample.distance, at: sample.time)
            }
        }
        errors.sort()
        return Score(medianError: errors[errors.count / 2], jitter: jitter.reduce(0, +) / Double(max(1, jitter.count)))
    }

    @Test func defaultFilterIsAtLeastAsGoodAsEveryReference() throws {
        let samples = try Self.load()
        #expect(samples.count > 80_000)
        let fit = try Calibration.pathLoss(samples: samples.filter { $0.distance > 0 }.map { ($0.distance, $0.rssi) })
        var scores: [RSSIFilterKind: Score] = [:]
        var table = "herald fit: P1m \(String(format: "%.1f", fit.measuredPower)) dBm, n \(String(format: "%.2f", fit.exponent))\n"
        table += "filter           median error (m)  jitter (m/tick)  step reaction (s)\n"
        for kind in RSSIFilterKind.allCases {
            let score = Self.score(kind, samples: samples, power: fit.measuredPower, exponent: fit.exponent)
            scores[kind] = score
            let reaction = FilterTargetTests.reactionTime(FilterTargetTests.stepRun(kind: kind, seed: 1))
            table += kind.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)
                + String(format: "%16.3f  %15.4f  %17.1f\n", score.medianError, score.jitter, reaction)
        }
        print(table)
        let adaptive = try #require(scores[.adaptive])
        for (kind, score) in scores where kind != .adaptive {
            #expect(adaptive.medianError <= score.medianError + 1e-9, "\(kind) beats the default: \(score.medianError) < \(adaptive.medianError)")
        }
        let reactionDefault = FilterTargetTests.reactionTime(FilterTargetTests.stepRun(kind: .adaptive, seed: 1))
        let reactionRunning = FilterTargetTests.reactionTime(FilterTargetTests.stepRun(kind: .runningAverage, seed: 1))
        #expect(reactionDefault < reactionRunning)
    }
}
