import HCI

/// One beacon frame heard once: when, from which address, how loud, and what it said. What every
/// source comes down to (`BeaconSightingDecoder` for HCI packets), and what ranging is fed.
public struct BeaconSighting: Sendable, Equatable {
    public var timestamp: Double
    public var address: BDAddress
    public var addressType: AddressType
    public var eventKind: AdvertisingEventKind
    /// dBm; nil when the controller had none (127).
    public var rssi: Int8?
    public var frame: BeaconFrame

    public init(timestamp: Double, address: BDAddress, addressType: AddressType, eventKind: AdvertisingEventKind,
                rssi: Int8?, frame: BeaconFrame) {
        self.timestamp = timestamp
        self.address = address
        self.addressType = addressType
        self.eventKind = eventKind
        self.rssi = rssi
        self.frame = frame
    }

    public var identity: BeaconIdentity { BeaconIdentity(frame: frame, address: address) }

    /// The one rule for what ranging uses: a frame that names a beacon heard with an RSSI.
    /// Eddystone-TLM is telemetry riding beside its beacon's UID or URL frame (it names no beacon
    /// of its own), and a report without RSSI (the controller said 127) says nothing about distance.
    /// Every path (replay, scan, monitor, simulator, bench) asks this, and only this.
    @inlinable
    public var isRangeable: Bool {
        guard rssi != nil else { return false }
        if case .eddystoneTLM = frame { return false }
        return true
    }
}
