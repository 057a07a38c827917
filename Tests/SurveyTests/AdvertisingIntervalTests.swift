import Captures
import HCI
import Testing
import TestFixtures
@testable import Survey

/// The advertising interval from arrival times, missed packets accounted for.
@Suite(.onComputationThread) struct AdvertisingIntervalTests {
    /// An iPhone advertising 6 ft from an nRF Sniffer (pact-nrf-sniffer-6ft.pcapng, MIT Lincoln
    /// Laboratory): 3136 events in 125 s. tshark's gap histogram of the same packets is flat from 30
    /// to 40 ms, the shape of a 30 ms interval plus the spec's random 0-10 ms delay, so the period is
    /// about 35 ms; 8% of its gaps are 10-13 ms, which no period explains.
    static func iPhoneArrivals() throws -> [Double] {
        let phone = try #require(BDAddress("5F:BA:26:46:45:C3"))
        var reader = try CaptureReader(path: SharedData.capture("pact-nrf-sniffer-6ft.pcapng").path)
        var decoder = AdvertisingReportDecoder()
        var times: [Double] = []
        while let packet = try reader.next() {
            try decoder.decode(packet) { if $0.address == phone { times.append($0.timestamp) } }
        }
        return times
    }

    @Test func aRealPhonesIntervalIsItsThirtyMillisecondsPlusTheRandomDelay() throws {
        let arrivals = try Self.iPhoneArrivals()
        #expect(arrivals.count == 9571, "three channels of 3190 events, as tshark counts them")
        let estimate = try #require(AdvertisingIntervalEstimate.estimate(arrivals: arrivals))
        #expect(abs(estimate.period - 0.035) < 0.0015, "period \(estimate.period)")
        // 3136 events over 125 s at 35 ms is 3561 sent: the sniffer missed about one in eight.
        #expect(abs(estimate.lossFraction - 0.17) < 0.03, "loss \(estimate.lossFraction)")
    }

    /// The real arrivals with whole events dropped at random, as a busy receiver drops them.
    static func dropping(_ share: Double, of arrivals: [Double], seed: UInt64) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        var kept: [Double] = []
        var keepEvent = true
        var last = -Double.infinity
        for time in arrivals {
            if time - last >= AdvertisingIntervalEstimate.sameEvent {
                keepEvent = Double.random(in: 0..<1, using: &generator) >= share
            }
            last = time
            if keepEvent { kept.append(time) }
        }
        return kept
    }

    /// Half the events dropped: the period stays put and the loss estimate finds what was dropped
    /// (on top of what the sniffer missed: 1 - (1 - 0.17)(1 - 0.5)).
    @Test func droppingHalfTheEventsChangesTheLossNotThePeriod() throws {
        let arrivals = try Self.iPhoneArrivals()
        let full = try #require(AdvertisingIntervalEstimate.estimate(arrivals: arrivals))
        var found = 0
        for seed in UInt64(1)...10 {
            guard let thinned = AdvertisingIntervalEstimate.estimate(arrivals: Self.dropping(0.5, of: arrivals, seed: seed)) else { continue }
            found += 1
            #expect(abs(thinned.period - full.period) < 0.0005, "seed \(seed): \(thinned.period)")
            let expectedLoss = 1 - (1 - full.lossFraction) * 0.5
            #expect(abs(thinned.lossFraction - expectedLoss) < 0.04, "seed \(seed): \(thinned.lossFraction)")
        }
        // Measured: 9 of 10 (the tenth gives no estimate rather than a wrong one).
        #expect(found >= 8, "an estimate on \(found) of 10 seeds")
    }

    /// Four events in five dropped from a capture that already has odd short gaps: the estimate
    /// may give up, but it never gives a wrong period.
    @Test func droppingFourInFiveGivesTheRightPeriodOrNone() throws {
        let arrivals = try Self.iPhoneArrivals()
        let full = try #require(AdvertisingIntervalEstimate.estimate(arrivals: arrivals))
        var found = 0
        for seed in UInt64(1)...20 {
            guard let thinned = AdvertisingIntervalEstimate.estimate(arrivals: Self.dropping(0.8, of: arrivals, seed: seed)) else { continue }
            found += 1
            #expect(abs(thinned.period - full.period) < 0.0005, "seed \(seed): \(thinned.period)")
        }
        // Measured: 9 of 20.
        #expect(found >= 5, "an estimate on \(found) of 20 seeds")
    }

    /// Intervals from the shortest Bluetooth allows to 5 s, loss from none to 85%, the spec's
    /// random delay on every event, 64 events kept (the tracker's history). Seeds 1-40 chose the
    /// tolerance cap (AdvertisingIntervalEstimate.tolerance); these are seeds 41-240, held out.
    /// Right means within 1% or 1 ms (the mean of 63 gaps of 0-10 ms random delay has a standard
    /// deviation of 0.36 ms: 1% of a 25 ms period is below what the data can tell).
    @Test func syntheticIntervalsAcrossLossRates() {
        var off: [String] = [], missing: [String] = []
        var cases = 0
        for interval in [0.020, 0.1, 0.2115, 1.0225, 5.0] {
            for loss in [0.0, 0.3, 0.6, 0.85] {
                for seed in UInt64(41)...240 {
                    var generator = SeededGenerator(seed: seed &* 1000 &+ UInt64(interval * 1e4) &+ UInt64(loss * 100))
                    var heard: [Double] = []
                    var time = 100.0
                    while heard.count < 64 {
                        if Double.random(in: 0..<1, using: &generator) >= loss { heard.append(time) }
                        time += interval + Double.random(in: 0...0.010, using: &generator)
                    }
                    cases += 1
                    let expected = interval + 0.005
                    let name = "\(interval) s, loss \(loss), seed \(seed)"
                    guard let estimate = AdvertisingIntervalEstimate.estimate(arrivals: heard) else {
                        missing.append(name)
                        continue
                    }
                    if abs(estimate.period - expected) > max(0.01 * expected, 0.001) { off.append("\(name): \(estimate.period)") }
                }
            }
        }
        print("interval estimate on \(cases) held-out cases: \(off.count) off, \(missing.count) without an estimate")
        // Measured: see docs/survey.md "Advertising interval". Only the shortest interval under
        // heavy loss is hard (gaps of many events blur into each other).
        #expect(off.count <= cases / 100, "\(off.count) of \(cases) off: \(off.prefix(10))")
        #expect(missing.count <= cases / 50, "\(missing.count) of \(cases) without an estimate: \(missing.prefix(10))")
        let hard = { (name: String) in name.hasPrefix("0.02 s") || name.contains("loss 0.85") }
        #expect((off + missing).allSatisfy(hard), "\((off + missing).filter { !hard($0) }.prefix(5))")
    }

    @Test func tooFewEventsOrFramesOfOneEventGiveNoEstimate() {
        #expect(AdvertisingIntervalEstimate.estimate(arrivals: [1.0, 1.1, 1.2, 1.3]) == nil, "three gaps")
        // An advertisement and its scan response 1 ms apart are one event.
        #expect(AdvertisingIntervalEstimate.estimate(arrivals: [1.0, 1.001, 1.1, 1.101, 1.2, 1.201, 1.3, 1.301]) == nil)
        let estimate = AdvertisingIntervalEstimate.estimate(arrivals: [1.0, 1.001, 1.1, 1.101, 1.2, 1.201, 1.3, 1.301, 1.4, 1.401])
        #expect(estimate?.eventsHeard == 5)
        #expect(abs((estimate?.period ?? 0) - 0.1) < 1e-9)
    }

    /// Gaps with no period in them: random, 50 ms to 3 s, and 20 to 300 ms, where a tolerance
    /// window of 0.35 period fits most gaps by chance. The fit-beats-chance rule was chosen on 200
    /// other random sequences of each kind (0 and 10 got a period; 166 and 78 before the rule).
    @Test func randomGapsAreMostlyNoInterval() {
        func estimates(_ range: ClosedRange<Double>) -> Int {
            (UInt64(200)...399).count { seed in
                var generator = SeededGenerator(seed: seed)
                var time = 0.0
                var arrivals: [Double] = []
                for _ in 0..<64 {
                    time += Double.random(in: range, using: &generator)
                    arrivals.append(time)
                }
                return AdvertisingIntervalEstimate.estimate(arrivals: arrivals) != nil
            }
        }
        let long = estimates(0.05...3), short = estimates(0.02...0.3)
        print("interval estimate on random gaps: 50 ms-3 s \(long) of 200, 20-300 ms \(short) of 200")
        #expect(long <= 2, "\(long) of 200 random sequences got a period")
        #expect(short <= 20, "\(short) of 200 random sequences got a period")
    }
}
