import BeaconFormats
import Foundation
import HCI
import Ranging
import Simulation
import PacketSources
import Synchronization

/// The `sim:CATALOG` source: `PacedSimulation` (a visitor walking past the catalog's beacons, looping)
/// as a `PacketSource`, each advertisement wrapped in an LE Advertising Report event so the monitor,
/// the recorder and every other source share one pipeline.
final class SimulatedPacketSource: PacketSource {
    let name: String
    let events: AsyncStream<SourceEvent>
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private let simulation: PacedSimulation<ContinuousClock>
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(name: String, scenario: Scenario, seed: UInt64 = 1, speed: Double = 1) {
        self.name = name
        simulation = PacedSimulation(scenario: scenario, seed: seed, clock: ContinuousClock(), speed: speed)
        (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    func start() throws {
        let simulation = simulation
        let continuation = continuation
        let name = name
        let running = Task {
            continuation.yield(.notice(.connected(source: name)))
            for await reception in simulation {
                let advertisement = reception.advertisement
                continuation.yield(.packet(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: advertisement.timestamp)))
            }
            continuation.finish()
        }
        task.withLock { $0 = running }
    }

    func stop() {
        task.withLock { $0?.cancel() }
        continuation.finish()
    }
}

/// A simulated venue from a catalog: every exhibit with an iBeacon id and a floor position becomes
/// a beacon there, and the visitor tours them in catalog order (`MuseumScenario.make`).
enum SimulatedVenue {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func scenario(catalog: ExhibitCatalog, path: String, seed: UInt64) throws -> Scenario {
        var beacons: [SimulatedBeacon] = []
        for exhibit in catalog.exhibits {
            guard let position = exhibit.position, let frame = iBeaconFrame(exhibit) else { continue }
            beacons.append(SimulatedBeacon(frame: frame, position: Point2D(position.x, position.y), advertisingInterval: 0.1, name: exhibit.name))
        }
        guard !beacons.isEmpty else {
            throw Failure(description: "sim:\(path): no exhibit has an iBeacon id (UUID:major:minor) and a position [x, y]; the simulator needs both")
        }
        return MuseumScenario.make(beacons: beacons, seed: seed, title: catalog.title ?? MuseumScenario.title)
    }

    static func iBeaconFrame(_ exhibit: Exhibit) -> IBeaconFrame? {
        let parts = exhibit.id.split(separator: ":")
        guard parts.count == 3, let uuid = UUIDBytes(String(parts[0])), let major = UInt16(parts[1]), let minor = UInt16(parts[2]) else {
            return nil
        }
        let power = exhibit.measuredPower.map { Int8(clamping: Int($0.rounded())) } ?? -59
        return IBeaconFrame(uuid: uuid, major: major, minor: minor, measuredPower: power)
    }
}
