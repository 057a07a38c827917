import BeaconFormats

/// An exhibition hall for the dwell-time report: eight booths in two rows 6 m apart either side
/// of an aisle, one visitor entering from the south door (13, 1), visiting most booths in a seeded order with
/// stays from a glance (8 s) to a long chat (2 min), skipping some and coming back to one.
/// `demo/tradeshow.yaml` holds the same booths.
public enum TradeShowScenario {
    public static let title = "BLE Expo 2026, Hall B"
    /// One iBeacon UUID for the venue; major 2026, minor = booth number.
    public static let uuid = UUIDBytes("3D1E9B47-72A5-4C8E-9F06-B5C2A8E41D73")!

    /// (name, minor, measured power, x, y)
    static let booths: [(String, UInt16, Int8, Double, Double)] = [
        ("Northwind Sensors", 101, -59, 4, 3),
        ("Lumen Robotics", 102, -60, 10, 3),
        ("Bluefin Analytics", 103, -58, 16, 3),
        ("Copperleaf Energy", 104, -61, 22, 3),
        ("Quayside Logistics", 105, -59, 4, 11),
        ("Halcyon Audio", 106, -60, 10, 11),
        ("Tessellate 3D", 107, -59, 16, 11),
        ("Meridian Health Tech", 108, -62, 22, 11),
    ]

    /// The booths' beacons, advertising every 250 ms (a battery-saving setting common at shows).
    public static var beacons: [SimulatedBeacon] {
        booths.map { name, minor, power, x, y in
            SimulatedBeacon(frame: IBeaconFrame(uuid: uuid, major: 2026, minor: minor, measuredPower: power),
                            position: Point2D(x, y), advertisingInterval: 0.25, name: name)
        }
    }

    /// The visiting order: a seeded shuffle of the booths without the last two, and the first
    /// booth visited again at the end ("let me ask one more thing").
    public static func visits(boothCount: Int, rng: inout SplitMix64) -> [Int] {
        var order = Array(0..<boothCount)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.index(below: i + 1)) }
        let kept = Array(order.prefix(max(1, boothCount - 2)))
        return kept.count > 2 ? kept + [kept[0]] : kept
    }

    public static func make(beacons: [SimulatedBeacon] = beacons, seed: UInt64, entrance: Point2D? = nil,
                            radio: RadioParameters = .tradeShow, title: String = title) -> Scenario {
        var rng = SplitMix64.stream(seed, purpose: 1)
        let order = visits(boothCount: beacons.count, rng: &rng)
        let door = entrance ?? TourPlanner.defaultEntrance(for: beacons)
        let plan = TourPlanner.plan(beacons: beacons, visits: order, entrance: door, style: .tradeShow, rng: &rng)
        return Scenario(title: title, beacons: beacons, plan: plan, radio: radio)
    }
}
