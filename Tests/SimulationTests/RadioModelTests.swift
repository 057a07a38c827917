import Foundation
import BeaconFormats
import HCI
import Testing
@testable import Simulation

/// Statistics of the radio model: each test runs a long, seeded, stationary scene and checks that
/// what comes out is what `RadioParameters` documents.
@Suite struct RadioModelTests {
    static let uuid = UUIDBytes("8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35")!

    static func beacon(_ minor: UInt16, at position: Point2D, power: Int8 = -59, interval: Double = 0.1) -> SimulatedBeacon {
        SimulatedBeacon(frame: IBeaconFrame(uuid: uuid, major: 1, minor: minor, measuredPower: power),
                        position: position, advertisingInterval: interval)
    }

    /// A walker standing at the origin facing +x for `duration` seconds.
    static func standing(_ beacons: [SimulatedBeacon], radio: RadioParameters, duration: Double,
                         facing: Point2D = Point2D(1, 0)) -> Scenario {
        Scenario(title: "bench", beacons: beacons,
                 plan: WalkPlan(legs: [.stay(at: .zero, facing: facing, duration: duration, visiting: nil)]), radio: radio)
    }

    static func run(_ scenario: Scenario, seed: UInt64) -> (receptions: [SimulatedReception], simulator: RadioSimulator) {
        var simulator = RadioSimulator(scenario: scenario, seed: seed)
        var out: [SimulatedReception] = []
        while let r = simulator.next() { out.append(r) }
        return (out, simulator)
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    @Test(arguments: [1.0, 2.0, 4.0, 8.0])
    func meanRSSIFollowsTheLogDistanceLaw(distance: Double) throws {
        var radio = RadioParameters.museum
        radio.deepFadeRate = 0 // deep fades are extra losses on top of the law; checked below
        let scenario = Self.standing([Self.beacon(1, at: Point2D(distance, 0))], radio: radio, duration: 3000)
        let (receptions, simulator) = Self.run(scenario, seed: 7)
        let truth = simulator.truths[0]
        let expected = truth.powerAt1m - 10 * truth.pathLossExponent * log10(distance)
        let rssi = receptions.map { Double($0.advertisement.rssi!) }
        #expect(rssi.count > 20_000)
        #expect(abs(Self.mean(rssi) - expected) < 1.0, "mean \(Self.mean(rssi)) vs law \(expected)")
    }

    @Test func calibrationErrorsAndExponentsStayInTheirRanges() {
        let beacons = (1...40).map { Self.beacon(UInt16($0), at: Point2D(Double($0), 0), power: -59) }
        let simulator = RadioSimulator(scenario: Self.standing(beacons, radio: .museum, duration: 1), seed: 3)
        let errors = simulator.truths.map { $0.powerAt1m + 59 }
        #expect(errors.allSatisfy { abs($0) <= 3 })
        #expect(errors.max()! - errors.min()! > 3, "errors should spread over the +/-3 dB range")
        #expect(simulator.truths.allSatisfy { (2.0...2.5).contains($0.pathLossExponent) })
    }

    @Test func shadowingIsCorrelatedOverSecondsWithTheDocumentedSpread() {
        var rng = SplitMix64(seed: 11)
        var process = GaussMarkovProcess(sigma: 4, tau: 3, time: 0, rng: &rng)
        var values: [Double] = []
        for k in 1...200_000 { values.append(process.advance(to: Double(k) * 0.1, rng: &rng)) }
        let m = Self.mean(values)
        let variance = Self.mean(values.map { ($0 - m) * ($0 - m) })
        func correlation(lag: Int) -> Double {
            Self.mean((0..<(values.count - lag)).map { (values[$0] - m) * (values[$0 + lag] - m) }) / variance
        }
        #expect(abs(variance.squareRoot() - 4) < 0.3)
        #expect(abs(correlation(lag: 10) - exp(-1.0 / 3)) < 0.05) // 1 s apart: still alike
        #expect(abs(correlation(lag: 100) - exp(-10.0 / 3)) < 0.05) // 10 s apart: independent
    }

    @Test func fastFadingIsCentredAndHasTheRicianSpread() {
        var rng = SplitMix64(seed: 5)
        let rician = FastFading(ricianK: 2)
        let samples = (0..<100_000).map { _ in rician.sample(rng: &rng) }
        let sd = Self.mean(samples.map { $0 * $0 }).squareRoot()
        #expect(abs(Self.mean(samples)) < 0.1)
        #expect(abs(sd - 4.38) < 0.1, "Rician K=2 spread \(sd) dB")
        let rayleigh = FastFading(ricianK: 0)
        let raySD = Self.mean((0..<100_000).map { _ in pow(rayleigh.sample(rng: &rng), 2) }).squareRoot()
        #expect(abs(raySD - 5.57) < 0.15, "Rayleigh in dB has a 5.57 dB spread; got \(raySD)")
    }

    @Test func deepFadesTakeTheDocumentedShareOfTime() {
        var radio = RadioParameters.ideal
        radio.deepFadeRate = 1.0 / 30
        let scenario = Self.standing([Self.beacon(1, at: Point2D(2, 0))], radio: radio, duration: 6000)
        let (receptions, simulator) = Self.run(scenario, seed: 9)
        let law = simulator.truths[0].powerAt1m - 20 * log10(2)
        let faded = receptions.filter { $0.exactRSSI < law - 9.99 }
        let share = Double(faded.count) / Double(receptions.count)
        // Mean fade 0.9 s every 30 s on average: 0.9 / 30.9 = 2.9% of packets.
        #expect((0.018...0.042).contains(share), "share in deep fade \(share)")
        #expect(faded.allSatisfy { $0.exactRSSI >= law - 20.01 })
    }

    @Test func theBodyBlocksBeaconsBehindTheWalker() {
        var radio = RadioParameters.museum
        radio.deepFadeRate = 0
        let beacons = [Self.beacon(1, at: Point2D(3, 0)), Self.beacon(2, at: Point2D(-3, 0)), Self.beacon(3, at: Point2D(0, 3))]
        let (receptions, simulator) = Self.run(Self.standing(beacons, radio: radio, duration: 3000), seed: 21)
        func excess(_ i: Int) -> Double {
            let law = simulator.truths[i].powerAt1m - 10 * simulator.truths[i].pathLossExponent * log10(3)
            return Self.mean(receptions.filter { $0.beaconIndex == i }.map(\.exactRSSI)) - law
        }
        #expect(abs(excess(0)) < 1.0, "in front: no body loss")
        #expect(abs(excess(1) + 12) < 1.0, "behind: the full 12 dB")
        #expect(abs(excess(2) + 3) < 1.0, "at the side: a quarter")
        #expect(BodyShadowing.loss(maximum: 12, position: .zero, heading: Point2D(0, 1), beacon: Point2D(0, -5)) == 12)
    }

    @Test func advertisingEventsFollowTheIntervalPlusAdvDelay() {
        let scenario = Self.standing([Self.beacon(1, at: Point2D(1, 0), interval: 0.1)], radio: .ideal, duration: 600)
        let times = Self.run(scenario, seed: 4).receptions.map { $0.advertisement.timestamp }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 0.1 - 1e-6 && $0 <= 0.110 + 1e-6 })
        #expect(abs(Self.mean(gaps) - 0.105) < 0.0005) // advDelay uniform 0-10 ms: mean 5 ms
        #expect(gaps.max()! - gaps.min()! > 0.009)
    }

    @Test func packetsAreLostAtTheConfiguredRateAndBelowSensitivity() {
        var radio = RadioParameters.museum
        radio.deepFadeRate = 0
        let beacons = [Self.beacon(1, at: Point2D(1, 0)), Self.beacon(2, at: Point2D(400, 0))]
        let (receptions, simulator) = Self.run(Self.standing(beacons, radio: radio, duration: 2000), seed: 8)
        let share = Double(simulator.packetsReceived[0]) / Double(simulator.eventsSent[0])
        #expect(abs(share - 0.9) < 0.01, "received share \(share)")
        #expect(simulator.packetsReceived[1] == 0 && simulator.eventsSent[1] > 0, "400 m away is below sensitivity")
        #expect(receptions.allSatisfy { $0.beaconIndex == 0 })
    }

    @Test func rssiIsAnIntegerClampedToTheControllerRange() {
        var radio = RadioParameters.museum
        radio.deepFadeRate = 0
        // A hot beacon 10 cm away would be +10 dBm on average: reported at the -20 dBm ceiling.
        let beacons = [Self.beacon(1, at: Point2D(0.1, 0), power: -10), Self.beacon(2, at: Point2D(30, 0))]
        let receptions = Self.run(Self.standing(beacons, radio: radio, duration: 300), seed: 2).receptions
        let rssi = receptions.map { Int($0.advertisement.rssi!) }
        #expect(rssi.allSatisfy { (-100...(-20)).contains($0) })
        let hot = receptions.filter { $0.beaconIndex == 0 }
        #expect(hot.filter { $0.advertisement.rssi == -20 }.count * 100 >= hot.count * 99, "30 dB above the ceiling: all but the deepest fades clamp")
        for r in receptions {
            let clamped = min(max(Int(r.exactRSSI.rounded()), -100), -20)
            #expect(Int(r.advertisement.rssi!) == clamped)
        }
    }

    @Test func advertisementsCarryTheBeaconsIBeaconFrameInTimeOrder() throws {
        let beacons = (1...5).map { Self.beacon(UInt16($0), at: Point2D(Double($0), 1), power: -60) }
        let receptions = Self.run(MuseumScenario.make(beacons: beacons, seed: 1), seed: 1).receptions
        #expect(receptions.count > 1000)
        #expect(zip(receptions.dropFirst(), receptions).allSatisfy { $0.advertisement.timestamp >= $1.advertisement.timestamp })
        for r in receptions.prefix(200) {
            let frame = try #require(BeaconDecoder.decode(r.advertisement.data))
            #expect(BeaconIdentity(frame: frame, address: r.advertisement.address) == beacons[r.beaconIndex].identity)
            #expect(r.advertisement.address == beacons[r.beaconIndex].address)
            #expect(r.advertisement.eventKind == .advNonconnInd)
        }
    }

    @Test func theSameSeedGivesTheSameRunAndAnotherSeedAnother() {
        let scenario = MuseumScenario.make(seed: 42)
        func signature(_ seed: UInt64) -> [String] {
            var simulator = RadioSimulator(scenario: scenario, seed: seed)
            return (0..<3000).compactMap { _ in simulator.next() }.map { "\($0.advertisement.timestamp) \($0.beaconIndex) \($0.advertisement.rssi!)" }
        }
        #expect(signature(42) == signature(42))
        #expect(signature(42) != signature(43))
        #expect(MuseumScenario.make(seed: 42) == MuseumScenario.make(seed: 42))
        #expect(MuseumScenario.make(seed: 42).plan != MuseumScenario.make(seed: 43).plan)
    }
}
