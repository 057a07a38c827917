import BeaconFormats

/// A beacon region as CoreLocation defines one (`CLBeaconRegion` / `CLBeaconIdentityConstraint`):
/// a proximity UUID, optionally narrowed to one major, optionally to one minor. It matches iBeacon
/// and AltBeacon identities (id1 as the UUID); Eddystone beacons belong to no region.
public struct BeaconRegion: Sendable, Hashable {
    public var name: String?
    public var uuid: UUIDBytes
    public var major: UInt16?
    /// Only meaningful with a major, as in CoreLocation.
    public var minor: UInt16?

    public init(name: String? = nil, uuid: UUIDBytes, major: UInt16? = nil, minor: UInt16? = nil) {
        self.name = name
        self.uuid = uuid
        self.major = major
        self.minor = major == nil ? nil : minor
    }

    /// `UUID`, `UUID:major` or `UUID:major:minor` (UUID upper-case).
    public var spec: String {
        var text = uuid.description
        if let major { text += ":\(major)" }
        if major != nil, let minor { text += ":\(minor)" }
        return text
    }

    /// What events print: the name if it has one, else the spec.
    public var identifier: String { name ?? spec }

    public func contains(_ identity: BeaconIdentity) -> Bool {
        switch identity {
        case .iBeacon(let id, let major, let minor), .altBeacon(let id, let major, let minor):
            id == uuid && (self.major ?? major) == major && (self.minor ?? minor) == minor
        default:
            false
        }
    }

    /// Parses a spec string; nil when it is not `UUID[:major[:minor]]` with 16-bit numbers.
    public init?(spec: String, name: String? = nil) {
        guard let constraint = try? BeaconIdentityConstraint(parsing: spec) else { return nil }
        self.init(name: name, uuid: constraint.uuid, major: constraint.major, minor: constraint.minor)
    }
}
