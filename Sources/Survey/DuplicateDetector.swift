import BeaconFormats
import HCI

/// Tells two transmitters sending one identity (a cloned or misconfigured beacon: a warning) from
/// one transmitter changing its address (a phone's private address rotating: merged, no warning).
///
/// The rule is about interleaving, so it holds at any advertising rate. Two live transmitters are
/// heard by turns: each address keeps being heard after the other appeared. A rotating transmitter
/// stops its old address when it starts the new one: the old address is not heard again after the
/// new one appeared, or only a straggler or two. So a pair of addresses of one identity is a
/// duplicate once each was heard `interleavedPackets` times after the other's first packet and
/// both over at least `minimumOverlap` seconds; a new address whose predecessor then stays silent
/// (for `rotationSilentGaps` of its own gaps) is a rotation. Time is data: no clock is read.
public struct DuplicateDetector: Sendable {
    public var configuration: DuplicateConfiguration
    private var identities: [IdentityKey: IdentityAddresses] = [:]

    public init(configuration: DuplicateConfiguration = DuplicateConfiguration()) {
        self.configuration = configuration
    }

    public var identityCount: Int { identities.count }

    /// One packet of `identity` from `address` at capture time `time`; returns a `duplicate` event
    /// the first time a pair meets the rule and a `rotated` event when an address change is
    /// confirmed. Eddystone-TLM carries no identity of its own and is ignored.
    public mutating func observe(time: Double, identity: BeaconIdentity, address: BDAddress, rssi: Int?) -> [AddressEvent] {
        if case .eddystoneTLM = identity { return [] }
        // One hash per packet, the state changed in place (hashing an identity is most of the cost).
        let key = IdentityKey(identity: identity)
        if let index = identities.index(forKey: key) {
            return identities.values[index].observe(time: time, identity: identity, address: address, rssi: rssi, configuration: configuration)
        }
        if identities.count >= configuration.maxIdentities, let oldest = identities.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
            identities[oldest] = nil
        }
        var state = IdentityAddresses()
        let events = state.observe(time: time, identity: identity, address: address, rssi: rssi, configuration: configuration)
        identities[key] = state
        return events
    }

    /// The duplicates still going on at `time` (both addresses heard within `forgetAfter`), by identity.
    public func duplicates(at time: Double) -> [DuplicateFinding] {
        identities.flatMap { key, state in state.findings(identity: key.identity, at: time, forgetAfter: configuration.forgetAfter) }
            .sorted { ($0.identity, $0.addresses[0].address, $0.addresses[1].address) < ($1.identity, $1.addresses[0].address, $1.addresses[1].address) }
    }

    /// The duplicates of one identity still going on at `time`: what a row warning shows.
    public func duplicates(of identity: BeaconIdentity, at time: Double) -> [DuplicateFinding] {
        identities[IdentityKey(identity: identity)]?.findings(identity: identity, at: time, forgetAfter: configuration.forgetAfter) ?? []
    }

    /// The addresses remembered for `identity`, most recently heard last.
    public func addresses(of identity: BeaconIdentity) -> [AddressSummary] {
        (identities[IdentityKey(identity: identity)]?.addresses ?? []).sorted { $0.lastSeen < $1.lastSeen }
    }
}
