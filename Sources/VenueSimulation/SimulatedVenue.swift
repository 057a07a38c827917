import Foundation
import Synchronization
import Ranging
import Simulation
import Venue

/// A venue written to check the presence rule: rooms in a grid with a scanner each, visitors
/// wearing badges (iBeacons at 3 Hz) walking from room to room, scanners whose receivers read up
/// to +-8 dB apart, each with a reference beacon 1 m away, and one scanner failing mid-run. Each
/// scanner publishes, once a second per badge it hears, the median RSSI of its last two seconds of
/// packets, as an agent or an ESPresense node does; the venue view receives it 50 ms later.
///
/// A simulator we wrote is a sanity check, not evidence: the figures it gives count only on
/// seeds that chose no parameter (docs/venue.md).
public struct SimulatedVenue: Sendable {
    public struct Configuration: Sendable {
        public var plan: VenueFloorPlan
        public var walkers: Int
        public var duration: Double
        public var badgeInterval: Double
        public var radio: VenueRadio
        /// When a scanner fails, as a fraction of the run; nil for none.
        public var failureAt: Double?

        public init(plan: VenueFloorPlan = VenueFloorPlan(columns: 4, rows: 2, roomSize: 8), walkers: Int = 30, duration: Double = 600,
                    badgeInterval: Double = 1.0 / 3, radio: VenueRadio = .rooms, failureAt: Double? = 0.5) {
            self.plan = plan
            self.walkers = walkers
            self.duration = duration
            self.badgeInterval = badgeInterval
            self.radio = radio
            self.failureAt = failureAt
        }
    }

    public struct Scanner: Sendable {
        public var name: String
        public var room: Int
        public var position: Point2D
        /// The hidden truth: dB this receiver adds to what it hears.
        public var offset: Double
        public var referenceBeacon: String
    }

    public static let measuredPower = -59.0
    public static let publishLatency = 0.05

    public let configuration: Configuration
    public let seed: UInt64
    public let scanners: [Scanner]
    public let walks: [VenueWalk]
    /// The failing scanner and when it stops.
    public let failure: (scanner: Int, time: Double)?

    public init(configuration: Configuration = Configuration(), seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
        let plan = configuration.plan
        var rng = SplitMix64.stream(seed, purpose: 1)
        scanners = (0..<plan.roomCount).map { room in
            let position = plan.centre(of: room) + Point2D(rng.uniform(-2...2), rng.uniform(-2...2))
            let offset = rng.uniform(-configuration.radio.offsetRange...configuration.radio.offsetRange)
            return Scanner(name: "scanner-\(room + 1)", room: room, position: position, offset: offset, referenceBeacon: "reference-\(room + 1)")
        }
        walks = (0..<configuration.walkers).map { _ in VenueWalk(plan: plan, duration: configuration.duration, rng: &rng) }
        failure = configuration.failureAt.map { (rng.index(below: plan.roomCount), $0 * configuration.duration) }
    }

    public static func badge(_ walker: Int) -> String { "badge-\(walker + 1)" }

    /// Rooms and scanners with their reference beacons; no offsets (they are to be learnt).
    public var catalog: ExhibitCatalog {
        let plan = configuration.plan
        return ExhibitCatalog(
            title: "Simulated venue, seed \(seed)", exhibits: [],
            rooms: (0..<plan.roomCount).map { VenueRoom(id: plan.roomName($0)) },
            scanners: scanners.map { VenueScanner(id: $0.name, room: plan.roomName($0.room), referenceBeacon: $0.referenceBeacon) }
        )
    }

    /// Every reading the view receives, in time order.
    public func readings() -> [ScannerReading] {
        var all: [ScannerReading] = []
        for (index, scanner) in scanners.enumerated() {
            let stopsAt = failure.flatMap { $0.scanner == index ? $0.time : nil } ?? .infinity
            var phaseRNG = SplitMix64.stream(seed, purpose: 2_000 + UInt64(index))
            let phase = phaseRNG.unit()
            for walker in walks.indices {
                let packets = badgePackets(walker: walker, scanner: index)
                all += published(packets, scanner: scanner, beacon: Self.badge(walker), phase: phase, stopsAt: stopsAt)
            }
            all += published(referencePackets(scanner: index), scanner: scanner, beacon: scanner.referenceBeacon, phase: phase, stopsAt: stopsAt)
        }
        all.sort { ($0.time, $0.scanner, $0.beacon) < ($1.time, $1.scanner, $1.beacon) }
        return all
    }

    /// The room a walker is really in at `time` and since when it has been staying there (nil
    /// while walking); nil before it arrives.
    public func truth(walker: Int, at time: Double) -> (room: Int, stayingSince: Double?)? {
        guard let pose = walks[walker].pose(at: time) else { return nil }
        return (configuration.plan.room(at: pose.position), pose.stayingSince)
    }

    /// Once a second from `phase`, the median of the last 2 s of packets, if any.
    private func published(_ packets: [(time: Double, rssi: Int)], scanner: Scanner, beacon: String, phase: Double, stopsAt: Double) -> [ScannerReading] {
        var readings: [ScannerReading] = []
        var first = 0
        var last = 0
        var window: [Int] = []
        var time = phase
        while time <= configuration.duration, time < stopsAt {
            while last < packets.count, packets[last].time <= time { last += 1 }
            while first < last, packets[first].time <= time - 2 { first += 1 }
            if first < last {
                window = packets[first..<last].map(\.rssi).sorted()
                let middle = window.count / 2
                let median = window.count % 2 == 1 ? Double(window[middle]) : Double(window[middle - 1] + window[middle]) / 2
                readings.append(ScannerReading(scanner: scanner.name, beacon: beacon, time: time + Self.publishLatency, sentAt: time,
                                               rssi: median, measuredPower: Self.measuredPower, format: .beacontop))
            }
            time += 1
        }
        return readings
    }

    private func badgePackets(walker: Int, scanner index: Int) -> [(time: Double, rssi: Int)] {
        let radio = configuration.radio
        let plan = configuration.plan
        let scanner = scanners[index]
        var setup = SplitMix64.stream(seed, purpose: 10_000 + UInt64(walker))
        let power = Self.measuredPower + setup.uniform(-radio.calibrationError...radio.calibrationError)
        let exponent = setup.uniform(radio.pathLossExponent)
        var rng = SplitMix64.stream(seed, purpose: 100_000 + UInt64(walker) * 256 + UInt64(index))
        var shadowing = GaussMarkovProcess(sigma: radio.shadowingSigma, tau: radio.shadowingCorrelationTime, time: 0, rng: &rng)
        let fading = Self.fading(radio.ricianK)
        var packets: [(Double, Int)] = []
        let walk = walks[walker]
        var time = walk.arrival + setup.unit() * configuration.badgeInterval
        while time <= configuration.duration {
            defer { time += configuration.badgeInterval + rng.unit() * 0.010 }
            guard let pose = walk.pose(at: time) else { continue }
            let horizontal = pose.position.distance(to: scanner.position)
            let distance = (horizontal * horizontal + 1.2 * 1.2).squareRoot()
            var rssi = power - 10 * exponent * log10(distance)
            rssi -= Double(plan.walls(between: plan.room(at: pose.position), and: scanner.room)) * radio.wallLoss
            rssi += shadowing.advance(to: time, rng: &rng) + fading.sample(rng: &rng)
            rssi -= BodyShadowing.loss(maximum: radio.bodyLoss, position: pose.position, heading: pose.heading, beacon: scanner.position)
            rssi += scanner.offset
            if rng.chance(radio.packetLoss) || rssi - scanner.offset < radio.sensitivity { continue }
            packets.append((time, Int(rssi.rounded())))
        }
        return packets
    }

    /// The reference beacon, 1 m from its scanner, in nobody's way: shadowing and fading only.
    private func referencePackets(scanner index: Int) -> [(time: Double, rssi: Int)] {
        let radio = configuration.radio
        var rng = SplitMix64.stream(seed, purpose: 50_000 + UInt64(index))
        var shadowing = GaussMarkovProcess(sigma: radio.shadowingSigma / 2, tau: 10, time: 0, rng: &rng)
        let fading = Self.fading(radio.ricianK)
        var packets: [(Double, Int)] = []
        var time = rng.unit()
        while time <= configuration.duration {
            let rssi = Self.measuredPower + shadowing.advance(to: time, rng: &rng) + fading.sample(rng: &rng) + scanners[index].offset
            if !rng.chance(radio.packetLoss) { packets.append((time, Int(rssi.rounded()))) }
            time += 1
        }
        return packets
    }

    /// `FastFading` estimates its mean offset from 65,536 draws when made: made once per K.
    private static let fadingByK = Mutex<[Double: FastFading]>([:])

    private static func fading(_ k: Double) -> FastFading {
        fadingByK.withLock { table in
            if let made = table[k] { return made }
            let made = FastFading(ricianK: k)
            table[k] = made
            return made
        }
    }
}
