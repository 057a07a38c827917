import BeaconFormats

/// Tallies for every distinct beacon of a capture, by identity.
///
/// A 64-slot direct-mapped cache in front of the dictionary: hashing the identity with SipHash
/// for every frame was a tenth of `beacontop decode`'s time (perf), and a capture rarely holds
/// more than a few dozen beacons.
public struct BeaconTallies: Sendable {
    private var indexByIdentity: [BeaconIdentity: Int] = [:]
    private var cache = [Int](repeating: -1, count: 64)
    public private(set) var tallies: [BeaconTally] = []

    public init() {}

    public mutating func add(_ sighting: BeaconSighting) {
        let identity = sighting.identity
        let slot = Self.slot(identity)
        if let slot {
            let index = cache[slot]
            if index >= 0 && tallies[index].identity == identity {
                tallies[index].add(sighting)
                return
            }
        }
        let index: Int
        if let known = indexByIdentity[identity] {
            index = known
        } else {
            index = tallies.count
            indexByIdentity[identity] = index
            tallies.append(BeaconTally(identity: identity))
        }
        if let slot { cache[slot] = index }
        tallies[index].add(sighting)
    }

    /// A cheap slot for iBeacon identities (Fibonacci hashing of the folded fields); nil for others.
    private static func slot(_ identity: BeaconIdentity) -> Int? {
        guard case .iBeacon(let uuid, let major, let minor) = identity else { return nil }
        let folded = uuid.high ^ (uuid.low &* 31) ^ UInt64(major) << 16 ^ UInt64(minor)
        return Int(truncatingIfNeeded: (folded &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The tallies ordered by identity string, the order `decode` prints them in.
    public var sorted: [BeaconTally] { tallies.sorted { $0.identity.description < $1.identity.description } }
}
