import BeaconFormats
import HCI

/// One beacon frame heard once: when, from which address, how loud, and what it said.
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
}

/// The per-packet pipeline every file, live source and replay shares: HCI packet ->
/// advertisements (`AdvertisingReportDecoder`) -> beacon frames (`BeaconDecoder`).
///
/// Stateful only through the report decoder (extended-report fragments being joined).
public struct BeaconSightingDecoder: Sendable {
    private var reports = AdvertisingReportDecoder()

    public init() {}

    /// Calls `body` for each beacon frame in `packet`. Throws when the packet is malformed;
    /// sightings before the fault have been delivered.
    @inlinable
    public mutating func decode(_ packet: HCIPacket, _ body: (BeaconSighting) -> Void) throws(DecodeError) {
        // Most HCI traffic is not an LE Meta event; skip it before any call.
        guard packet.type == .event, packet.direction == .controllerToHost,
              let first = packet.payload.first, first == 0x3E else { return }
        try decodeReports(packet, body)
    }

    @usableFromInline
    mutating func decodeReports(_ packet: HCIPacket, _ body: (BeaconSighting) -> Void) throws(DecodeError) {
        // Every frame, as `BeaconPipeline` and the monitor range them: `replay FILE --json` must
        // print what `scan FILE --json` prints, also for an advertisement carrying two.
        let time = packet.timestamp
        try reports.decode(packet, legacy: { report, payload in
            BeaconDecoder.forEachFrame(in: payload, bounds: report.data) { frame in
                body(BeaconSighting(
                    timestamp: time, address: report.address, addressType: report.addressType,
                    eventKind: report.eventKind, rssi: report.rssi, frame: frame
                ))
            }
        }, extended: { advertisement in
            BeaconDecoder.forEachFrame(in: advertisement.data) { frame in
                body(BeaconSighting(
                    timestamp: advertisement.timestamp, address: advertisement.address, addressType: advertisement.addressType,
                    eventKind: advertisement.eventKind, rssi: advertisement.rssi, frame: frame
                ))
            }
        })
    }
}
