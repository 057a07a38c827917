import HCI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One advertisement the simulated scanner received.
public struct SimulatedReception: Sendable {
    /// Index of the sending beacon in `Scenario.beacons`.
    public var beaconIndex: Int
    /// What a controller would report: time (Unix seconds), address, integer RSSI, iBeacon data.
    public var advertisement: Advertisement
    /// The received power before quantisation and clamping (dBm), for statistics.
    public var exactRSSI: Double
}

/// The hidden truth the simulator draws for one beacon: what it really transmits.
public struct BeaconRadioTruth: Sendable, Hashable {
    /// Real mean RSSI at 1 m (dBm): the claimed measured power plus the calibration error.
    public var powerAt1m: Double
    public var pathLossExponent: Double
}

/// The physical simulation: merges every beacon's advertising events in time order, computes
/// each packet's received power from the walker's pose (see `RadioParameters` for the model) and
/// yields the received ones. Pure and deterministic: the same scenario and seed give the same
/// advertisements, bit for bit; nothing reads a clock.
public struct RadioSimulator: IteratorProtocol, Sendable {
    public let scenario: Scenario
    /// Hidden per-beacon truth, in beacon order.
    public let truths: [BeaconRadioTruth]
    /// When false the run ends with the plan; when true it loops the plan forever.
    public let looping: Bool
    /// Advertising events sent and packets received, per beacon (loss statistics).
    public private(set) var eventsSent: [Int]
    public private(set) var packetsReceived: [Int]

    private var rng: SplitMix64
    private var nextEvent: [Double]
    private var shadowing: [GaussMarkovProcess]
    private var deepFadeStart: [Double]
    private var deepFadeEnd: [Double]
    private var deepFadeDepth: [Double]
    private let fading: FastFading
    private let payloads: [ArraySlice<UInt8>]

    public init(scenario: Scenario, seed: UInt64, looping: Bool = false) {
        self.scenario = scenario
        self.looping = looping
        let radio = scenario.radio
        var setup = SplitMix64.stream(seed, purpose: 2)
        truths = scenario.beacons.map { beacon in
            let error = setup.uniform(-radio.calibrationError...radio.calibrationError)
            return BeaconRadioTruth(powerAt1m: Double(beacon.frame.measuredPower) + error,
                                    pathLossExponent: setup.uniform(radio.pathLossExponent))
        }
        // Beacons are not synchronised: each starts at a random phase of its interval.
        nextEvent = scenario.beacons.map { setup.unit() * $0.advertisingInterval }
        shadowing = scenario.beacons.map { _ in
            GaussMarkovProcess(sigma: radio.shadowingSigma, tau: radio.shadowingCorrelationTime, time: 0, rng: &setup)
        }
        deepFadeStart = scenario.beacons.map { _ in
            radio.deepFadeRate > 0 ? setup.exponential(rate: radio.deepFadeRate) : .infinity
        }
        deepFadeEnd = deepFadeStart.map { $0 }
        deepFadeDepth = scenario.beacons.map { _ in setup.uniform(radio.deepFadeDepth) }
        for i in deepFadeEnd.indices where deepFadeStart[i].isFinite {
            deepFadeEnd[i] = deepFadeStart[i] + setup.uniform(radio.deepFadeDuration)
        }
        fading = FastFading(ricianK: radio.ricianK)
        payloads = scenario.beacons.map { $0.advertisingData[...] }
        eventsSent = Array(repeating: 0, count: scenario.beacons.count)
        packetsReceived = eventsSent
        rng = SplitMix64.stream(seed, purpose: 3)
    }

    /// The next received advertisement, or nil when the (non-looping) plan is over.
    public mutating func next() -> SimulatedReception? {
        guard !scenario.beacons.isEmpty else { return nil }
        while true {
            var index = 0
            for i in nextEvent.indices where nextEvent[i] < nextEvent[index] { index = i }
            let t = nextEvent[index]
            if !looping, t > scenario.plan.duration { return nil }
            let beacon = scenario.beacons[index]
            let radio = scenario.radio
            nextEvent[index] = t + beacon.advertisingInterval + rng.unit() * radio.maxAdvertisingDelay
            eventsSent[index] += 1
            let power = receivedPower(beacon: index, at: t)
            if rng.chance(radio.packetLoss) || power < radio.sensitivity { continue }
            packetsReceived[index] += 1
            let rounded = Int(power.rounded())
            let rssi = min(max(rounded, radio.rssiRange.lowerBound), radio.rssiRange.upperBound)
            let ad = Advertisement(
                timestamp: scenario.startTime + t, address: beacon.address, addressType: .randomDevice,
                eventKind: .advNonconnInd, rssi: Int8(clamping: rssi), data: payloads[index]
            )
            return SimulatedReception(beaconIndex: index, advertisement: ad, exactRSSI: power)
        }
    }

    /// The received power (dBm) of beacon `index`'s packet at scenario time `t`, before loss,
    /// rounding and clamping. Advances that beacon's shadowing and deep-fade processes to `t`.
    private mutating func receivedPower(beacon index: Int, at t: Double) -> Double {
        let radio = scenario.radio
        let pose = scenario.plan.pose(at: t, looping: looping)
        let position = scenario.beacons[index].position
        let distance = max(0.1, pose.position.distance(to: position))
        let truth = truths[index]
        var power = truth.powerAt1m - 10 * truth.pathLossExponent * log10(distance)
        power += shadowing[index].advance(to: t, rng: &rng)
        if radio.fastFading { power += fading.sample(rng: &rng) }
        power -= BodyShadowing.loss(maximum: radio.bodyLoss, position: pose.position, heading: pose.heading, beacon: position)
        while t >= deepFadeEnd[index] {
            deepFadeStart[index] = deepFadeEnd[index] + rng.exponential(rate: radio.deepFadeRate)
            deepFadeEnd[index] = deepFadeStart[index] + rng.uniform(radio.deepFadeDuration)
            deepFadeDepth[index] = rng.uniform(radio.deepFadeDepth)
        }
        if t >= deepFadeStart[index] { power -= deepFadeDepth[index] }
        return power
    }
}
