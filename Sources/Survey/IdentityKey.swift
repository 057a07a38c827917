import BeaconFormats

/// A beacon identity as a dictionary key with a cheap hash. The synthesized hash of
/// `BeaconIdentity` feeds the hasher five times for an iBeacon (case, two UUID halves, major,
/// minor), and the duplicate detector looks an identity up on every packet: folded into one
/// 64-bit word it costs one `combine` (callgrind, `beacontop-bench survey 100000 duplicates`).
/// Equality is still the identity's own, so a fold that collides only shares a bucket.
struct IdentityKey: Hashable, Sendable {
    let identity: BeaconIdentity

    func hash(into hasher: inout Hasher) {
        switch identity {
        case .iBeacon(let uuid, let major, let minor), .altBeacon(let uuid, let major, let minor):
            hasher.combine(uuid.high ^ uuid.low.byteSwapped ^ (UInt64(major) << 16 | UInt64(minor)))
        default:
            identity.hash(into: &hasher)
        }
    }
}
