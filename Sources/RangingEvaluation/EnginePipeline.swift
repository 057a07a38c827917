import BeaconFormats
import HCI
import Ranging

/// beacontop itself under `RunProtocol`: a real `RangingEngine` with a one-exhibit catalog that
/// carries the technician's calibration (measured power at 1 m, and a path-loss exponent when a
/// second calibration point gave one), fed a sighting per sample and ticked at each tick.
public struct EnginePipeline: RangingPipeline {
    static let identity = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 1)
    static let address = BDAddress(rawValue: 0xC0FF_EE00_0001)

    private var engine: RangingEngine
    private let measuredPower: Int

    public init(configuration: RangingConfiguration, measuredPower: Double, pathLossExponent: Double? = nil) {
        let exhibit = Exhibit(id: Self.identity.description, name: "run", measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        engine = RangingEngine(configuration: configuration, catalog: ExhibitCatalog(exhibits: [exhibit]))
        self.measuredPower = Int(measuredPower.rounded())
    }

    public mutating func add(rssi: Double, at time: Double) {
        engine.record(Sighting(time: time, identity: Self.identity, measuredPower: measuredPower, address: Self.address, rssi: Int(rssi.rounded())))
    }

    public mutating func estimate(at time: Double) -> DistanceEstimate? {
        guard let reading = engine.tick(at: time).beacons.first, reading.accuracy >= 0 else { return nil }
        return DistanceEstimate(
            distance: reading.accuracy, range: reading.accuracyRange, loss: reading.filteredRSSI.map { reading.measuredPower.dBm - $0 }
        )
    }
}
