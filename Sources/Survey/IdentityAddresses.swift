import BeaconFormats
import HCI

/// The addresses one identity was heard from, the pairs among them, and the address changes not
/// yet confirmed: the duplicate detector's state for one identity, bounded by
/// `DuplicateConfiguration.addressesPerIdentity`.
struct IdentityAddresses: Sendable {
    struct Pair: Sendable {
        var first: BDAddress
        var second: BDAddress
        /// Packets from `first` after `second` was first heard, and the other way round.
        var firstAfterSecond = 0
        var secondAfterFirst = 0
        var detected: Double?
    }

    struct Change: Sendable {
        var from: BDAddress
        var to: BDAddress
        var since: Double
    }

    var addresses: [AddressSummary] = []
    var pairs: [Pair] = []
    var changes: [Change] = []
    var lastSeen = -Double.infinity

    func index(of address: BDAddress) -> Int? { addresses.firstIndex { $0.address == address } }

    /// Drops addresses not heard since `horizon`, and everything that mentions them.
    mutating func forget(before horizon: Double) {
        // Checked first: this runs on every packet, and nothing is to be forgotten on almost all.
        guard addresses.contains(where: { $0.lastSeen < horizon }) else { return }
        drop(Set(addresses.filter { $0.lastSeen < horizon }.map(\.address)))
    }

    mutating func drop(_ gone: Set<BDAddress>) {
        addresses.removeAll { gone.contains($0.address) }
        pairs.removeAll { gone.contains($0.first) || gone.contains($0.second) }
        changes.removeAll { gone.contains($0.from) || gone.contains($0.to) }
    }

    /// Records one packet; returns what it revealed.
    mutating func observe(
        time: Double, identity: BeaconIdentity, address: BDAddress, rssi: Int?, configuration: DuplicateConfiguration
    ) -> [AddressEvent] {
        forget(before: time - configuration.forgetAfter)
        lastSeen = max(lastSeen, time)
        var events: [AddressEvent] = []
        let position: Int
        if let known = index(of: address) {
            position = known
        } else {
            if addresses.count >= configuration.addressesPerIdentity,
               let oldest = addresses.min(by: { $0.lastSeen < $1.lastSeen }) {
                drop([oldest.address])
            }
            if let previous = addresses.max(by: { $0.lastSeen < $1.lastSeen }) {
                changes.append(Change(from: previous.address, to: address, since: time))
            }
            for other in addresses { pairs.append(Pair(first: other.address, second: address)) }
            addresses.append(AddressSummary(address: address, firstSeen: time, lastSeen: time, packets: 0, rssi: nil))
            position = addresses.count - 1
        }
        addresses[position].packets += 1
        addresses[position].lastSeen = max(addresses[position].lastSeen, time)
        if let rssi {
            // A running level over about the last eight packets.
            addresses[position].rssi = addresses[position].rssi.map { $0 + (Double(rssi) - $0) / 8 } ?? Double(rssi)
        }
        for index in pairs.indices where pairs[index].first == address || pairs[index].second == address {
            if let finding = update(&pairs[index], heard: address, at: time, identity: identity, configuration: configuration) {
                events.append(.duplicate(finding))
                changes.removeAll { [$0.from, $0.to].contains(finding.addresses[0].address) && [$0.from, $0.to].contains(finding.addresses[1].address) }
            }
        }
        if !changes.isEmpty { events += confirmChanges(at: time, identity: identity, configuration: configuration) }
        return events
    }

    private func summary(_ address: BDAddress) -> AddressSummary? { index(of: address).map { addresses[$0] } }

    /// Counts a packet of `address` in its pair; returns a finding the first time the pair meets the rule.
    private func update(
        _ pair: inout Pair, heard address: BDAddress, at time: Double, identity: BeaconIdentity, configuration: DuplicateConfiguration
    ) -> DuplicateFinding? {
        guard let first = summary(pair.first), let second = summary(pair.second) else { return nil }
        if address == pair.first, time > second.firstSeen { pair.firstAfterSecond += 1 }
        if address == pair.second, time > first.firstSeen { pair.secondAfterFirst += 1 }
        guard pair.detected == nil,
              pair.firstAfterSecond >= configuration.interleavedPackets, pair.secondAfterFirst >= configuration.interleavedPackets,
              min(first.lastSeen, second.lastSeen) - max(first.firstSeen, second.firstSeen) >= configuration.minimumOverlap
        else { return nil }
        pair.detected = time
        return DuplicateFinding(identity: identity, addresses: [first, second].sorted { $0.address < $1.address }, detected: time)
    }

    /// An address change is confirmed when the old address stayed silent for `rotationSilentGaps`
    /// of its own packet gaps (and at least `minimumOverlap`) after the new one appeared.
    private mutating func confirmChanges(at time: Double, identity: BeaconIdentity, configuration: DuplicateConfiguration) -> [AddressEvent] {
        guard !changes.isEmpty else { return [] }
        var events: [AddressEvent] = []
        var pending: [Change] = []
        for change in changes {
            guard let old = summary(change.from) else { continue }
            let gap = old.packets > 1 ? (old.lastSeen - old.firstSeen) / Double(old.packets - 1) : 0
            let silence = max(configuration.minimumOverlap, configuration.rotationSilentGaps * gap)
            if time - change.since >= silence, time - old.lastSeen >= silence {
                events.append(.rotated(identity: identity, from: change.from, to: change.to, time: time))
            } else {
                pending.append(change)
            }
        }
        changes = pending
        return events
    }

    /// Pairs that met the rule and whose two addresses are both still heard (within `forgetAfter`).
    func findings(identity: BeaconIdentity, at time: Double, forgetAfter: Double) -> [DuplicateFinding] {
        pairs.compactMap { pair in
            guard let detected = pair.detected, let first = summary(pair.first), let second = summary(pair.second),
                  time - first.lastSeen <= forgetAfter, time - second.lastSeen <= forgetAfter
            else { return nil }
            return DuplicateFinding(identity: identity, addresses: [first, second].sorted { $0.address < $1.address }, detected: detected)
        }
    }
}
