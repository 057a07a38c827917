import BeaconFormats
import HCI

/// One beacon the simulator places on the floor: what it sends (an iBeacon frame with the
/// measured power it *claims*), from which address, where it stands and how often it advertises.
///
/// The catalog (`ExhibitCatalog` in Ranging) maps to a list of these; the simulator adds the
/// hidden truth (the beacon's real power at 1 m, off the claim by a calibration error, and its
/// room's path-loss exponent) from its own seed.
public struct SimulatedBeacon: Sendable, Hashable {
    public var frame: IBeaconFrame
    public var address: BDAddress
    public var position: Point2D
    /// Nominal advertising interval in seconds (advInterval); each event also waits the
    /// spec's random advDelay of 0-10 ms (Core 5.4 Vol 6 Part B 4.4.2.2.1).
    public var advertisingInterval: Double
    /// A human name for logs and truth files (the catalog's exhibit name); not sent on air.
    public var name: String

    public init(frame: IBeaconFrame, address: BDAddress? = nil, position: Point2D,
                advertisingInterval: Double = 0.1, name: String = "") {
        self.frame = frame
        self.address = address ?? Self.staticRandomAddress(for: frame)
        self.position = position
        self.advertisingInterval = advertisingInterval
        self.name = name
    }

    /// The identity the ranging engine and catalogs know this beacon by.
    public var identity: BeaconIdentity { .iBeacon(uuid: frame.uuid, major: frame.major, minor: frame.minor) }

    /// The iBeacon advertising data (Flags + Apple manufacturer data), 30 bytes.
    public var advertisingData: [UInt8] { frame.advertisingData }

    /// A stable static random address derived from the frame (Core 5.4 Vol 6 Part B 1.3.2.1:
    /// the two most significant bits are 1), so a catalog without addresses still gives each
    /// beacon the same address in every run.
    public static func staticRandomAddress(for frame: IBeaconFrame) -> BDAddress {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 // FNV-1a over the id bytes
        for byte in frame.uuid.bytes + [UInt8(frame.major >> 8), UInt8(frame.major & 0xFF),
                                        UInt8(frame.minor >> 8), UInt8(frame.minor & 0xFF)] {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        var mixer = SplitMix64(seed: hash) // spread neighbouring ids over the whole address
        return BDAddress(rawValue: (mixer.next() & 0x3FFF_FFFF_FFFF) | 0xC000_0000_0000)
    }
}
