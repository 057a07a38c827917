import Foundation
import Simulation

/// The project's own simulator (`Simulation.RadioSimulator`, museum scenario) as a `WalkRecording`:
/// the first of the evaluation's two radio models.
public enum SimulatorWorld {
    public static func recording(seed: UInt64) -> WalkRecording {
        let scenario = MuseumScenario.make(seed: seed)
        var radio = RadioSimulator(scenario: scenario, seed: seed)
        var packets: [WalkRecording.Packet] = []
        while let reception = radio.next() {
            guard let rssi = reception.advertisement.rssi else { continue }
            packets.append(.init(time: reception.advertisement.timestamp, exhibit: reception.beaconIndex, rssi: Int(rssi)))
        }
        let start = scenario.startTime
        let plan = scenario.plan
        return WalkRecording(
            title: "simulator museum \(seed)",
            exhibits: scenario.beacons.map { .init(identity: $0.identity, x: $0.position.x, y: $0.position.y, claimedPower: Double($0.frame.measuredPower)) },
            packets: packets,
            stays: GroundTruth.stays(scenario),
            start: start, end: start + scenario.duration,
            position: { time in let p = plan.pose(at: time - start).position; return (p.x, p.y) }
        )
    }
}
