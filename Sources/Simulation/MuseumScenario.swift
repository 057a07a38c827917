import BeaconFormats

/// The museum of issue 3's "museum walk" and of `beacontop demo`: ten exhibits around a 16 m x
/// 10 m hall (three pairs only 2 m apart, one on a pedestal in the middle), a visitor entering
/// at the south door (8, 0), standing 0.6-1.2 m in front of each exhibit in turn for 10-25 s, walking
/// 1.0-1.4 m/s between them, and leaving by the same door. `demo/museum.yaml` holds the same
/// exhibits (a test keeps them in step).
public enum MuseumScenario {
    public static let title = "The Little Museum of Clever Things"
    /// One iBeacon UUID for the whole venue; major 1, minor = exhibit number.
    public static let uuid = UUIDBytes("8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35")!

    /// (name, minor, measured power, x, y)
    static let exhibits: [(String, UInt16, Int8, Double, Double)] = [
        ("Rosetta Stone (cast)", 1, -59, 1.0, 2.0),
        ("Antikythera Mechanism (replica)", 2, -61, 1.0, 4.0),
        ("Lewis Chessmen", 3, -58, 1.0, 7.0),
        ("Sutton Hoo Helmet (replica)", 4, -60, 3.0, 9.0),
        ("Brass Astrolabe, Toledo", 5, -59, 5.0, 9.0),
        ("Dodo Skeleton", 6, -62, 8.5, 9.0),
        ("Harrison's H4 Chronometer (replica)", 7, -59, 12.0, 9.0),
        ("Enigma Machine", 8, -60, 15.0, 7.0),
        ("Jacquard Loom Cards", 9, -58, 15.0, 5.0),
        ("Foucault Pendulum", 10, -59, 8.0, 5.0),
    ]

    /// The ten exhibits' beacons, advertising every 100 ms (Apple's recommended iBeacon interval).
    public static var beacons: [SimulatedBeacon] {
        exhibits.map { name, minor, power, x, y in
            SimulatedBeacon(frame: IBeaconFrame(uuid: uuid, major: 1, minor: minor, measuredPower: power),
                            position: Point2D(x, y), advertisingInterval: 0.1, name: name)
        }
    }

    /// A visit of every exhibit in the given beacons' order (catalog order), entering and leaving
    /// at `entrance` (default: `TourPlanner.defaultEntrance`); stays, standing spots and speeds are drawn from `seed`.
    public static func make(beacons: [SimulatedBeacon] = beacons, seed: UInt64, entrance: Point2D? = nil,
                            radio: RadioParameters = .museum, title: String = title) -> Scenario {
        var rng = SplitMix64.stream(seed, purpose: 1)
        let door = entrance ?? TourPlanner.defaultEntrance(for: beacons)
        let plan = TourPlanner.plan(beacons: beacons, visits: Array(beacons.indices), entrance: door,
                                    style: .museum, rng: &rng)
        return Scenario(title: title, beacons: beacons, plan: plan, radio: radio)
    }
}
