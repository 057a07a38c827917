import BeaconFormats
import HCI
import Ranging
@testable import Simulation

/// Replays a simulated run through the whole default pipeline, as `replay --json` would: each
/// advertisement is encoded as an LE Advertising Report event, decoded back to sightings by the one
/// sighting decoder and fed to a `RangingEngine` (default configuration, the venue as its catalog), which
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
        var decoder = BeaconSightingDecoder()
        var nextTick = scenario.startTime + 1
        while let reception = simulator.next() {
            let ad = reception.advertisement
            while ad.timestamp >= nextTick {
                ticks.append((nextTick, engine.tick(at: nextTick).nearest))
                nextTick += 1
            }
            try decoder.decode(AdvertisingReportEncoder.legacyReportPacket([ad], at: ad.timestamp)) { engine.record($0) }
        }
        ticks.append((nextTick, engine.tick(at: nextTick).nearest))
    }
}
