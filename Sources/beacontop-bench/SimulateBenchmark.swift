import BeaconFormats
import HCI
import Simulation

/// `beacontop-bench simulate [ADVERTISEMENTS]`: generates that many received advertisements
/// (default 1,000,000) from 50 beacons on a 10 x 5 grid 3 m apart, advertising every 100 ms,
/// with the museum radio and a looping visit of every beacon, and encodes each as an HCI event
/// (what `simulate` writes, minus the file). Prints advertisements per second of wall time.
enum SimulateBenchmark {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap { Int($0) } ?? 1_000_000
        let uuid = UUIDBytes("8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35")!
        let beacons = (0..<50).map { index in
            SimulatedBeacon(frame: IBeaconFrame(uuid: uuid, major: 7, minor: UInt16(index), measuredPower: -59),
                            position: Point2D(Double(index % 10) * 3, Double(index / 10) * 3), advertisingInterval: 0.1)
        }
        let scenario = MuseumScenario.make(beacons: beacons, seed: 1)
        var simulator = RadioSimulator(scenario: scenario, seed: 1, looping: true)
        var bytes = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count {
            guard let reception = simulator.next() else { break }
            bytes &+= AdvertisingReportEncoder.legacyReportPacket([reception.advertisement], at: reception.advertisement.timestamp).payload.count
        }
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let simulated = simulator.eventsSent.reduce(0, +)
        print("simulate: \(count) advertisements (\(simulated) advertising events, 50 beacons) in \(String(seconds)) s: \(Int(Double(count) / seconds)) advertisements/s (\(bytes) event bytes)")
    }
}
