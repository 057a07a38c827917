import BeaconFormats
import Ranging

/// Why a catalog cannot be simulated; names the exhibit field, like the catalog's own errors.
public struct SimulationCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public var description: String { "\(field): \(reason)" }
}

extension SimulatedBeacon {
    /// The beacons of a catalog's exhibits, in catalog order (the museum walk's visiting order).
    /// Every exhibit needs an iBeacon id (`UUID:major:minor`), the only frame the simulator sends,
    /// and a `position`; its `measuredPower` (default -59 dBm) is what the frame claims.
    public static func beacons(from catalog: ExhibitCatalog, advertisingInterval: Double = 0.1,
                               defaultMeasuredPower: Int8 = -59) throws(SimulationCatalogError) -> [SimulatedBeacon] {
        try catalog.exhibits.enumerated().map { index, exhibit throws(SimulationCatalogError) in
            let field = "exhibits[\(index)]"
            guard let id = try? BeaconIdentityConstraint(parsing: exhibit.id), let (major, minor) = id.majorMinor else {
                throw SimulationCatalogError(field: "\(field).id", reason: "\(exhibit.id) is not an iBeacon id UUID:major:minor, the only kind the simulator sends")
            }
            guard let position = exhibit.position else {
                throw SimulationCatalogError(field: "\(field).position", reason: "missing: the simulator needs each exhibit's place on the floor")
            }
            var power = defaultMeasuredPower
            if let claimed = exhibit.measuredPower {
                guard claimed.isFinite, (-127...20).contains(claimed.rounded()) else {
                    throw SimulationCatalogError(field: "\(field).measuredPower", reason: "\(claimed) is outside -127...20 dBm")
                }
                power = Int8(claimed.rounded())
            }
            return SimulatedBeacon(frame: IBeaconFrame(uuid: id.uuid, major: major, minor: minor, measuredPower: power),
                                   position: Point2D(position.x, position.y), advertisingInterval: advertisingInterval,
                                   name: exhibit.name)
        }
    }
}

extension VenueStyle {
    /// The scenario for a catalog's exhibits (see `SimulatedBeacon.beacons(from:)`).
    public func scenario(catalog: ExhibitCatalog, seed: UInt64) throws(SimulationCatalogError) -> Scenario {
        let beacons = try SimulatedBeacon.beacons(from: catalog, advertisingInterval: advertisingInterval)
        guard !beacons.isEmpty else { throw SimulationCatalogError(field: "exhibits", reason: "empty: nothing to simulate") }
        return scenario(beacons: beacons, title: catalog.title, seed: seed)
    }
}
