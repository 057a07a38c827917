/// The two kinds of venue the simulator knows: they differ in the walk (every exhibit in
/// catalog order, or a booth crawl with skips and a revisit), the advertising interval and how
/// busy the radio is. `simulate --scenario` and the `sim:` source pick one.
public enum VenueStyle: String, CaseIterable, Sendable {
    case museum
    case tradeshow

    /// Advertising interval of the venue's beacons (s).
    public var advertisingInterval: Double {
        switch self {
        case .museum: 0.1
        case .tradeshow: 0.25
        }
    }

    /// The built-in venue's beacons.
    public var builtInBeacons: [SimulatedBeacon] {
        switch self {
        case .museum: MuseumScenario.beacons
        case .tradeshow: TradeShowScenario.beacons
        }
    }

    public var builtInTitle: String {
        switch self {
        case .museum: MuseumScenario.title
        case .tradeshow: TradeShowScenario.title
        }
    }

    /// The scenario for `beacons` (the built-in venue when nil) and `seed`.
    public func scenario(beacons: [SimulatedBeacon]? = nil, title: String? = nil, seed: UInt64) -> Scenario {
        let beacons = beacons ?? builtInBeacons
        let title = title ?? builtInTitle
        switch self {
        case .museum: return MuseumScenario.make(beacons: beacons, seed: seed, title: title)
        case .tradeshow: return TradeShowScenario.make(beacons: beacons, seed: seed, title: title)
        }
    }
}
