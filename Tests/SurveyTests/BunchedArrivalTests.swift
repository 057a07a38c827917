import Captures
import Foundation
import HCI
import Testing
import TestFixtures
@testable import Survey

/// The advertising interval when arrival times are bunched by the transport (H4 over TCP or a
/// serial relay, a USB controller batching reports, a loaded host): the gaps no longer decide
/// between the interval and half of it, and the estimate must not pick the half.
@Suite struct BunchedArrivalTests {
    /// A beacon at `interval` with the spec's random 0-10 ms delay per event and random loss, its
    /// reports then held back by the transport: each, with probability `held`, by 10-100 ms (else
    /// by 0-8 ms), arrival order kept. With `held` 0.15 a 100 ms beacon shows what the survey tour
    /// saw from Bumble over tcp: gaps mostly 96-113 ms plus bursts of 0-22 and 66-92 ms.
    static func bunched(interval: Double, loss: Double, held: Double, seed: UInt64) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        var sent: [Double] = []
        var time = 100.0
        while sent.count < 64 {
            if Double.random(in: 0..<1, using: &generator) >= loss { sent.append(time) }
            time += interval + Double.random(in: 0...0.010, using: &generator)
        }
        var arrivals: [Double] = []
        for time in sent {
            let hold = Double.random(in: 0..<1, using: &generator) < held
                ? Double.random(in: 0.010...0.100, using: &generator) : Double.random(in: 0...0.008, using: &generator)
            arrivals.append(max(time + hold, arrivals.last ?? 0))
        }
        return arrivals
    }

    /// Counts of estimates within 1% (or 1 ms) of the true period, within the health view's 20%
    /// (no finding), further off (a false finding), and none.
    struct Outcomes: CustomStringConvertible {
        var right = 0, near = 0, wrong = 0, none = 0
        var description: String { "\(right) right, \(near) within 20%, \(wrong) wrong, \(none) none" }

        mutating func add(_ estimate: AdvertisingIntervalEstimate?, period: Double) {
            guard let estimate else { none += 1; return }
            let off = abs(estimate.period - period)
            if off <= max(0.01 * period, 0.001) { right += 1 } else if off <= 0.2 * period { near += 1 } else { wrong += 1 }
        }
    }

    static func outcomes(interval: Double, loss: Double, held: Double, seeds: ClosedRange<UInt64>) -> Outcomes {
        var outcomes = Outcomes()
        for seed in seeds {
            let arrivals = bunched(interval: interval, loss: loss, held: held, seed: seed &* 7919 &+ UInt64(interval * 1e4) &+ UInt64(loss * 100))
            outcomes.add(AdvertisingIntervalEstimate.estimate(arrivals: arrivals), period: interval + 0.005)
        }
        return outcomes
    }

    /// The survey tour's case, a 100 ms beacon over a bunching transport: it read "advertises every
    /// 51 ms" (72 of 100 seeds wrong before the rule). The rule (`decidingShare`) was chosen on
    /// seeds 1-100; these are seeds 101-300.
    @Test func aBunchedHundredMillisecondBeaconIsNotHalved() {
        for loss in [0.0, 0.3] {
            let outcomes = Self.outcomes(interval: 0.1, loss: loss, held: 0.15, seeds: 101...300)
            print("bunched 100 ms beacon, loss \(loss), seeds 101-300: \(outcomes)")
            #expect(outcomes.wrong <= 10, "loss \(loss): \(outcomes)")
            #expect(outcomes.right >= 20, "loss \(loss): \(outcomes)")
        }
    }

    /// Other intervals and a transport that holds twice as many reports, none of them looked at
    /// while choosing the rule. A report held for up to 100 ms beside a 50-200 ms interval leaves
    /// the gaps little to say: most give no estimate, which raises no finding.
    @Test func otherIntervalsAndHeavierBunchingMostlyGiveNoneRatherThanWrong() {
        var lines: [String] = []
        var wrong = 0, cases = 0
        for interval in [0.05, 0.2115, 1.0225] {
            for held in [0.15, 0.3] {
                let outcomes = Self.outcomes(interval: interval, loss: 0.3, held: held, seeds: 101...200)
                lines.append("\(interval) s held \(held): \(outcomes)")
                wrong += outcomes.wrong
                cases += 100
            }
        }
        print("bunched, loss 0.3, seeds 101-200:\n" + lines.joined(separator: "\n"))
        #expect(wrong <= cases / 8, "\(wrong) of \(cases) wrong:\n\(lines.joined(separator: "\n"))")
    }

    /// The real iPhone capture (30 ms interval, period 35 ms, 3136 events) with one event in ten
    /// held back 5-12 ms: real timing a little bunched keeps its period. A guard on the true case:
    /// it passes without the rule too (most of the phone's gaps are 1 event, which no m divides),
    /// and fails if the rule or the tolerances come to refuse mild jitter.
    @Test func aRealPhoneALittleBunchedKeepsItsPeriod() throws {
        let arrivals = try AdvertisingIntervalTests.iPhoneArrivals()
        let period = try #require(AdvertisingIntervalEstimate.estimate(arrivals: arrivals)).period
        var outcomes = Outcomes()
        for seed in UInt64(1)...10 {
            var generator = SeededGenerator(seed: seed)
            var bunched: [Double] = []
            var hold = 0.0, last = -Double.infinity
            for time in arrivals {
                // The frames of one event (three channels) are held together.
                if time - last >= AdvertisingIntervalEstimate.sameEvent {
                    hold = Double.random(in: 0..<1, using: &generator) < 0.1
                        ? Double.random(in: 0.005...0.012, using: &generator) : Double.random(in: 0...0.003, using: &generator)
                }
                last = time
                bunched.append(max(time + hold, bunched.last ?? 0))
            }
            outcomes.add(AdvertisingIntervalEstimate.estimate(arrivals: bunched), period: period)
        }
        print("real iPhone, events held back, seeds 1-10: \(outcomes)")
        #expect(outcomes.right == 10, "\(outcomes)")
    }

    /// Every transmitter with 5 or more events in the shared real captures (docs/survey.md gives
    /// the figures). 128 of 260 had an estimate before the multiples rule; the 14 it takes away
    /// include a 51.0 ms one at 98% loss (h5075-h5074) and a 54.3 ms one (horizon74).
    @Test func realCapturesEstimates() throws {
        var lines: [String] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedData.capture("").path).sorted()
        for name in names {
            var reader = try CaptureReader(path: SharedData.capture(name).path)
            var decoder = AdvertisingReportDecoder()
            var times: [String: [Double]] = [:]
            // A malformed record ends a file here: what came before it is used. (ll-phdr-no-rssi.pcapng
            // had two, read until link-layer CRCs were checked: they are CRC errors, and it is read whole.)
            do {
                while let packet = try reader.next() {
                    try decoder.decode(packet) { times["\($0.address)", default: []].append($0.timestamp) }
                }
            } catch {}
            for (address, arrivals) in times.sorted(by: { $0.key < $1.key }) where arrivals.count >= 5 {
                let estimate = AdvertisingIntervalEstimate.estimate(arrivals: arrivals)
                lines.append("\(name) \(address) \(arrivals.count): " + (estimate.map { String(format: "%.1f ms, loss %.0f%%", $0.period * 1000, $0.lossFraction * 100) } ?? "none"))
            }
        }
        print(lines.joined(separator: "\n"))
        #expect(lines.count == 265, "transmitters with 5 or more events")
        #expect(lines.count { !$0.hasSuffix("none") } == 113, "estimates")
        #expect(lines.contains("horizon74.btsnoop 24:FC:E5:30:29:91 24: none"))
    }
}
