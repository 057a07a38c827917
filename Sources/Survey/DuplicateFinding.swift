import BeaconFormats
import HCI

/// The thresholds of the duplicate rule, with their reasons (docs/survey.md "Duplicates and
/// rotating addresses").
public struct DuplicateConfiguration: Sendable, Equatable {
    /// Packets each of two addresses must send after the other was first heard before they count
    /// as two transmitters. A transmitter rotating its address stops the old one at once; a few
    /// stragglers (reports delivered late) are allowed for, three packets each way are not.
    public var interleavedPackets = 3
    /// Seconds both must have been heard over (from the later first packet to the earlier last
    /// one): two packets of an old address just after the change are not a second transmitter.
    public var minimumOverlap = 2.0
    /// An old address not heard for this many of its own packet gaps (and at least
    /// `minimumOverlap`) after a new one appeared has rotated into it.
    public var rotationSilentGaps = 3.0
    /// An address not heard for this long (s) is forgotten, and a duplicate it was part of ends.
    /// Two minutes: the real Govee captures hear a thermometer only every 10 to 60 s.
    public var forgetAfter = 120.0
    /// Addresses remembered per identity; the least recently heard goes first.
    public var addressesPerIdentity = 8
    /// Identities tracked at once; the least recently heard goes first.
    public var maxIdentities = 1024

    public init() {}
}

/// One address sending an identity, as a duplicate finding shows it.
public struct AddressSummary: Sendable, Equatable {
    public var address: BDAddress
    public var firstSeen: Double
    public var lastSeen: Double
    public var packets: Int
    /// A smoothed RSSI (dBm): two transmitters of one identity usually differ in level.
    public var rssi: Double?

    public init(address: BDAddress, firstSeen: Double, lastSeen: Double, packets: Int, rssi: Double?) {
        self.address = address
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.packets = packets
        self.rssi = rssi
    }
}

/// Two transmitters sending the same identity at the same time: whatever ranges on that identity
/// mixes two places.
public struct DuplicateFinding: Sendable, Equatable, CustomStringConvertible {
    public var identity: BeaconIdentity
    /// The two addresses, lower address first.
    public var addresses: [AddressSummary]
    /// When the rule was first met.
    public var detected: Double

    public init(identity: BeaconIdentity, addresses: [AddressSummary], detected: Double) {
        self.identity = identity
        self.addresses = addresses
        self.detected = detected
    }

    public var description: String {
        let sides = addresses.map { side in
            side.rssi.map { "\(side.address) (\(Int($0.rounded())) dBm)" } ?? "\(side.address)"
        }
        return "duplicate: \(sides.joined(separator: " and ")) send \(identity)"
    }
}

/// What the duplicate detector noticed on a packet: an event for the event log and NDJSON.
public enum AddressEvent: Sendable, Equatable {
    /// Kind `duplicate`: a warning.
    case duplicate(DuplicateFinding)
    /// One transmitter changed its address (a phone's private address rotating): merged, not a
    /// warning.
    case rotated(identity: BeaconIdentity, from: BDAddress, to: BDAddress, time: Double)

    public var kind: String {
        switch self {
        case .duplicate: "duplicate"
        case .rotated: "address-rotated"
        }
    }
}
