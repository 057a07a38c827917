/// `UUID[:major[:minor]]`: a proximity UUID, optionally narrowed to one major and then one minor, as
/// CoreLocation's `CLBeaconIdentityConstraint` names iBeacons (and AltBeacons by their first id).
/// Parsed here once for catalogs, regions, the `/` filter, `advertise --ibeacon`, advertisement
/// scripts and the simulator.
public struct BeaconIdentityConstraint: Sendable, Hashable {
    public var uuid: UUIDBytes
    public var major: UInt16?
    /// Only given with a major.
    public var minor: UInt16?

    /// Which part of the text is wrong.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not one to three parts separated by `:`.
        case parts(Int)
        /// The UUID is not 32 hex digits (dashes optional).
        case uuid(String)
        case major(String)
        case minor(String)
    }

    public init(uuid: UUIDBytes, major: UInt16? = nil, minor: UInt16? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = major == nil ? nil : minor
    }

    public init(parsing text: some StringProtocol) throws(ParseError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { throw .parts(parts.count) }
        guard let uuid = UUIDBytes(parts[0]) else { throw .uuid(String(parts[0])) }
        var major: UInt16?
        var minor: UInt16?
        if parts.count >= 2 {
            guard let value = UInt16(parts[1]) else { throw .major(String(parts[1])) }
            major = value
        }
        if parts.count == 3 {
            guard let value = UInt16(parts[2]) else { throw .minor(String(parts[2])) }
            minor = value
        }
        self.init(uuid: uuid, major: major, minor: minor)
    }

    /// Major and minor, when both are given: a whole iBeacon identity.
    public var majorMinor: (major: UInt16, minor: UInt16)? {
        guard let major, let minor else { return nil }
        return (major, minor)
    }
}
