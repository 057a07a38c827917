import Glibc
import BeaconFormats
import HCI
import Ranging
import Survey

/// `beacontop-bench survey [SIGHTINGS]`: what beacon health and the duplicate detector cost per
/// sighting (1,000,000 sightings of 50 beacons at 10 adverts/s, as `ranging`), what a health
/// report of 1024 transmitters costs (the health view's refresh), and what a survey report of 72
/// samples of 5 beacons costs (six SVG maps and the CSV). Best of three runs each. `STAGE` (health,
/// duplicates, health-report, survey-report) runs one part, for callgrind.
enum SurveyBenchmark {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap(Int.init) ?? 1_000_000
        let stage = arguments.dropFirst().first
        func wanted(_ name: String) -> Bool { stage == nil || stage == name }
        let beacons = 50
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        let frames = (0..<beacons).map { BeaconFrame.iBeacon(IBeaconFrame(uuid: uuid, major: 1, minor: UInt16($0), measuredPower: -59)) }
        let identities = zip(frames, 0..<beacons).map { BeaconIdentity(frame: $0, address: BDAddress(rawValue: UInt64($1))) }
        let start = 1_700_000_000.0

        if wanted("health") {
        let health = best {
            var tracker = BeaconHealthTracker()
            for index in 0..<count {
                let beacon = index % beacons
                tracker.observe(time: start + Double(index) / Double(beacons * 10), address: BDAddress(rawValue: 0xC0FFEE000000 + UInt64(beacon)),
                                rssi: -60 - beacon / 5, frame: frames[beacon])
            }
            return tracker.transmitterCount
        }
        report("health observe", count: count, unit: "sightings", health)
        }

        if wanted("duplicates") {
        let duplicates = best {
            var detector = DuplicateDetector()
            var events = 0
            for index in 0..<count {
                let beacon = index % beacons
                events += detector.observe(time: start + Double(index) / Double(beacons * 10), identity: identities[beacon],
                                           address: BDAddress(rawValue: 0xC0FFEE000000 + UInt64(beacon)), rssi: -60).count
            }
            return events + detector.identityCount
        }
        report("duplicate observe", count: count, unit: "sightings", duplicates)
        }

        if wanted("health-report") {
        var full = BeaconHealthTracker()
        for transmitter in 0..<1024 {
            for event in 0..<64 {
                full.observe(time: start + Double(event) * 0.1 + Double(transmitter) * 1e-4, address: BDAddress(rawValue: UInt64(transmitter + 1)),
                             rssi: -70, frame: frames[transmitter % beacons])
            }
        }
        let reports = 20
        let healthReport = best {
            var findings = 0
            for _ in 0..<reports { findings += full.report().count }
            return findings
        }
        report("health report of 1024 transmitters", count: reports, unit: "reports", healthReport)
        }

        if wanted("survey-report") {
            let session = syntheticSurvey()
            let files = best { SurveyReport.files(session).reduce(0) { $0 + $1.contents.utf8.count } }
            report("survey report (72 samples, 5 beacons, 6 maps + CSV)", count: 1, unit: "reports", files)
        }
    }

    /// A 14 x 9 m hall, five beacons, a sample every 1.5 m, RSSI by log-distance (no noise).
    static func syntheticSurvey() -> SurveySession {
        let positions = [(2.5, 7.0), (2.25, 3.75), (5.25, 3.75), (10.5, 7.0), (11.5, 1.5)]
        let plan = SurveyPlan(title: "Bench hall", beacons: positions.enumerated().map {
            SurveyPlan.Beacon(id: "beacon-\($0.offset)", name: "Beacon \($0.offset)", position: FloorPosition(x: $0.element.0, y: $0.element.1))
        }, walls: [[[0, 0], [14, 0], [14, 9], [0, 9], [0, 0]], [[7, 0], [7, 5.5]]])
        var session = SurveySession(plan: plan, created: 1_700_000_000)
        for row in 0..<6 {
            for column in 0..<12 {
                let spot = FloorPosition(x: 0.75 + 1.5 * Double(column), y: 0.75 + 1.5 * Double(row))
                let readings = positions.enumerated().map { index, position in
                    let d = max(0.3, ((spot.x - position.0) * (spot.x - position.0) + (spot.y - position.1) * (spot.y - position.1)).squareRoot())
                    let median = (-59 - 22 * log10(d)).rounded()
                    return SpotReading(id: "beacon-\(index)", packets: 40, median: median, low: median - 4, high: median + 4,
                                       measuredPower: -59, exponent: 2, distance: d)
                }
                session.add(SurveySample(index: 0, spot: spot, start: 0, end: 5, readings: readings))
            }
        }
        return session
    }

    static func best(_ body: () -> Int) -> (Duration, Int) {
        var fastest: Duration?
        var checksum = 0
        for _ in 0..<3 {
            let elapsed = ContinuousClock().measure { checksum = body() }
            fastest = min(fastest ?? elapsed, elapsed)
        }
        return (fastest!, checksum)
    }

    static func report(_ name: String, count: Int, unit: String, _ result: (Duration, Int)) {
        let seconds = Double(result.0.components.seconds) + Double(result.0.components.attoseconds) / 1e18
        let each = seconds / Double(count)
        let text = each < 1e-3 ? "\(Int((each * 1e9).rounded())) ns" : "\(Int((each * 1e3).rounded())) ms"
        print("\(name): \(count) \(unit) in \(Int((seconds * 1000).rounded())) ms, \(text) each (checksum \(result.1))")
    }
}
