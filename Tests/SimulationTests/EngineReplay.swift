import BeaconFormats
import HCI
import Ranging
@testable import Simulation

/// Replays a simulated run through the whole default pipeline, as `replay --json` would: each
/// advertisement is encoded as an LE Advertising Report event, decoded back, its iBeacon frame
/// decoded and fed to a `RangingEngine` (default configuration, the venue as its catalog), which
/// ticks every second of capture time.
struct EngineReplay {
    var engine: RangingEngine
    var ticks: [(time: Double, nearest: BeaconIdentity?)] = []

    init(scenario: Scenario, seed: UInt64, configuration: RangingConfiguration = RangingConfiguration()) throws {
        let catalog = ExhibitCatalog(title: scenario.title, exhibits: scenario.beacons.map {
            Exhibit(id: $0.identity.description, name: $0.name, position: FloorPosition(x: $0.position.x, y: $0.position.y))
        })
        engine = RangingEngine(configuration: configuration, catalog: catalog)
        var simulator = RadioSimulator(scenario: scenario, seed: seed)
        var decoder = AdvertisingReportDecoder()
        var nextTick = scenario.startTime + 1
        while let reception = simulator.next() {
            let ad = reception.advertisement
            while ad.timestamp >= nextTick {
                ticks.append((nextTick, engine.tick(at: nextTick).nearest))
                nextTick += 1
            }
            try decoder.decode(AdvertisingReportEncoder.legacyReportPacket([ad], at: ad.timestamp)) { decoded in
                guard let frame = BeaconDecoder.decode(decoded.data), let rssi = decoded.rssi else { return }
                engine.record(frame: frame, address: decoded.address, rssi: Int(rssi), at: decoded.timestamp)
            }
        }
        ticks.append((nextTick, engine.tick(at: nextTick).nearest))
    }
}
