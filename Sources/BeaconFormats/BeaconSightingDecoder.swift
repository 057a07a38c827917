import HCI

/// The one sighting decoder every file, live source, replay and the simulator share: HCI packet ->
/// advertisements (`AdvertisingReportDecoder`) -> beacon frames (`BeaconDecoder`) -> sightings.
/// Every frame of an advertisement is delivered (an iBeacon and an Eddystone-TLM may share one),
/// rangeable or not: ranging asks `BeaconSighting.isRangeable`, a decode lists them all.
///
/// A packet timed outside `TimestampPolicy` is malformed: the capture readers never deliver one, but
/// a live source's clock or a caller's packet reaches here unchecked, and ranging and JSON need sane
/// times (docs/robustness.md "Timestamps").
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
        try Self.checkTime(packet.timestamp)
        try decodeReports(packet, body)
    }

    /// As `decode(_:_:)`, also handing over each frame's advertising data as received (the
    /// monitor's hex dump) and returning how many advertisements the packet held, beacons or not
    /// (the status line's adverts per second).
    @discardableResult
    public mutating func decode(
        _ packet: HCIPacket, withData body: (BeaconSighting, ArraySlice<UInt8>) -> Void
    ) throws(DecodeError) -> Int {
        var advertisements = 0
        let payload = packet.payload
        let start = payload.startIndex
        let time = packet.timestamp
        if packet.type == .event, packet.direction == .controllerToHost, packet.payload.first == 0x3E { try Self.checkTime(time) }
        try reports.decode(packet, legacy: { report, bytes in
            advertisements += 1
            BeaconDecoder.forEachFrame(in: bytes, bounds: report.data) { frame in
                body(BeaconSighting(
                    timestamp: time, address: report.address, addressType: report.addressType,
                    eventKind: report.eventKind, rssi: report.rssi, frame: frame
                ), payload[(start + report.data.lowerBound)..<(start + report.data.upperBound)])
            }
        }, extended: { advertisement in
            advertisements += 1
            BeaconDecoder.forEachFrame(in: advertisement.data) { frame in
                body(Self.sighting(advertisement, frame), advertisement.data)
            }
        })
        return advertisements
    }

    @inlinable
    static func checkTime(_ time: Double) throws(DecodeError) {
        guard TimestampPolicy.accepts(time) else {
            throw DecodeError(field: "timestamp", offset: 0, reason: TimestampPolicy.refusal(time))
        }
    }

    @usableFromInline
    mutating func decodeReports(_ packet: HCIPacket, _ body: (BeaconSighting) -> Void) throws(DecodeError) {
        let time = packet.timestamp
        try reports.decode(packet, legacy: { report, payload in
            BeaconDecoder.forEachFrame(in: payload, bounds: report.data) { frame in
                body(BeaconSighting(
                    timestamp: time, address: report.address, addressType: report.addressType,
                    eventKind: report.eventKind, rssi: report.rssi, frame: frame
                ))
            }
        }, extended: { advertisement in
            BeaconDecoder.forEachFrame(in: advertisement.data) { frame in body(Self.sighting(advertisement, frame)) }
        })
    }

    @usableFromInline
    static func sighting(_ advertisement: Advertisement, _ frame: BeaconFrame) -> BeaconSighting {
        BeaconSighting(
            timestamp: advertisement.timestamp, address: advertisement.address, addressType: advertisement.addressType,
            eventKind: advertisement.eventKind, rssi: advertisement.rssi, frame: frame
        )
    }
}
