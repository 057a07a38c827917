/// Turns HCI event packets into received advertisements.
///
/// Stateful only for LE Extended Advertising Reports, whose data may arrive in fragments
/// ("incomplete, more data to come") that are joined per advertiser (address and address type)
/// and advertising set (SID) before delivery. The joined advertisement carries the header fields
/// (RSSI, TX power, Event_Type bits, time) of its last fragment. A sequence the controller ends as
/// "incomplete, data truncated" is delivered with the data that arrived and
/// `dataStatus == .truncated`: AD structures that arrived whole are still good (a beacon frame
/// lives inside one structure), and a structure cut short stops the `ADStructures` walk.
/// Handles LE Advertising Report (Core 5.4 Vol 4 Part E 7.7.65.2) and LE Extended Advertising
/// Report (7.7.65.13); every other packet yields nothing.
public struct AdvertisingReportDecoder: Sendable {
    /// Pending extended-report fragments; bounded (see `FragmentReassembler`). Legacy reports never
    /// touch it, which keeps their path free of allocation.
    public private(set) var reassembler: FragmentReassembler

    public init() {
        reassembler = FragmentReassembler()
    }

    /// A decoder whose reassembler keeps at most `maximumPendingSequences` advertisers' fragments.
    public init(maximumPendingSequences: Int) {
        reassembler = FragmentReassembler(maximumPendingSequences: maximumPendingSequences)
    }

    /// Calls `body` for each advertisement in `packet`. Host-to-controller packets (a phone's own
    /// commands or advertising data in an Android log) are never received advertisements.
    /// Throws when the packet is malformed; reports before the fault have already been delivered.
    public mutating func decode(_ packet: HCIPacket, _ body: (Advertisement) -> Void) throws(DecodeError) {
        guard let (subevent, parameters) = try Self.leMetaEvent(packet) else { return }
        let payload = packet.payload
        let start = payload.startIndex
        switch subevent {
        case 0x02:
            let time = packet.timestamp
            try LegacyReports.forEach(in: payload.span, bounds: parameters) { report in
                body(Advertisement(
                    timestamp: time, address: report.address, addressType: report.addressType,
                    eventKind: report.eventKind, rssi: report.rssi,
                    data: payload[(start + report.data.lowerBound)..<(start + report.data.upperBound)]
                ))
            }
        case 0x0D:
            try decodeExtended(payload[(start + parameters.lowerBound)..<(start + parameters.upperBound)], at: packet.timestamp, body)
        default:
            return
        }
    }

    /// As `decode(_:_:)`, but legacy reports are handed over in place: the report's fields and a
    /// span of the packet's payload, its data at `report.data`. The replay's hot path reads beacon
    /// frames there without a slice per report (a slice retains the read buffer, and that reference
    /// counting was most of a replay's decoding time). Extended reports, which may need joining,
    /// come as advertisements.
    public mutating func decode(
        _ packet: HCIPacket, legacy: (LegacyReport, borrowing Span<UInt8>) -> Void, extended: (Advertisement) -> Void
    ) throws(DecodeError) {
        guard let (subevent, parameters) = try Self.leMetaEvent(packet) else { return }
        switch subevent {
        case 0x02:
            let bytes = packet.payload.span
            try LegacyReports.forEach(in: bytes, bounds: parameters) { legacy($0, bytes) }
        case 0x0D:
            let start = packet.payload.startIndex
            try decodeExtended(packet.payload[(start + parameters.lowerBound)..<(start + parameters.upperBound)], at: packet.timestamp, extended)
        default:
            return
        }
    }

    /// The subevent code of an LE Meta event (0x3E) the controller sent, and the range of its
    /// parameters (subevent code first) in the payload's span; nil for any other packet.
    private static func leMetaEvent(_ packet: HCIPacket) throws(DecodeError) -> (subevent: UInt8, parameters: Range<Int>)? {
        guard packet.type == .event, packet.direction == .controllerToHost else { return nil }
        let bytes = packet.payload.span
        // Event header: code, parameter length; LE Meta Event 0x3E carries a subevent code first.
        guard bytes.count >= 3, bytes[0] == 0x3E else { return nil }
        let declared = Int(bytes[1])
        guard declared + 2 <= bytes.count else {
            throw DecodeError(field: "parameter length", offset: 1, reason: "says \(declared) bytes, \(bytes.count - 2) present")
        }
        return (bytes[2], 2..<(2 + declared))
    }

    /// Extended reports (Core 5.4 Vol 4 Part E 7.7.65.13) are 24 header bytes then the data.
    /// Legacy PDUs (bit 4) are never fragmented; other reports are joined by `reassembler`. A
    /// complete report with nothing pending is delivered straight from the event buffer.
    private mutating func decodeExtended(_ params: ArraySlice<UInt8>, at time: Double, _ body: (Advertisement) -> Void) throws(DecodeError) {
        let base = params.startIndex
        guard params.count >= 2 else {
            throw DecodeError(field: "Num_Reports", offset: 3, reason: "missing")
        }
        let count = Int(params[base + 1])
        var i = base + 2
        for report in 0..<count {
            guard i + 24 <= params.endIndex else {
                throw DecodeError(field: "report \(report) header", offset: i - base + 2, reason: "event ends after \(report) of \(count) reports")
            }
            let properties = UInt16(params[i]) | UInt16(params[i + 1]) << 8
            let length = Int(params[i + 23])
            let dataStart = i + 24
            guard dataStart + length <= params.endIndex else {
                throw DecodeError(field: "report \(report) Data_Length", offset: i + 23 - base + 2, reason: "\(length) data bytes run past the event")
            }
            let isLegacy = properties & 0x10 != 0
            guard let status = isLegacy ? .complete : AdvertisingDataStatus(extendedProperties: properties) else {
                throw DecodeError(field: "report \(report) Event_Type", offset: i - base + 2, reason: "reserved data status 0b11")
            }
            let tx = Int8(bitPattern: params[i + 12])
            let rssi = Int8(bitPattern: params[i + 13])
            let sid = params[i + 11]
            let address = BDAddress(littleEndian: params, at: i + 3)
            let key = FragmentReassembler.Key(address: address, addressType: params[i + 2], setID: sid)
            var advertisement = Advertisement(
                timestamp: time,
                address: address,
                addressType: AddressType(code: key.addressType),
                eventKind: Self.kind(extendedProperties: properties),
                extendedProperties: properties,
                rssi: rssi == 127 ? nil : rssi,
                txPower: tx == 127 ? nil : tx,
                setID: sid == 0xFF ? nil : sid,
                data: params[dataStart..<(dataStart + length)]
            )
            i = dataStart + length
            if isLegacy || (status == .complete && (reassembler.isEmpty || !reassembler.hasPending(key))) {
                body(advertisement)
                continue
            }
            switch reassembler.add(advertisement.data, status: status, for: key) {
            case .waiting, .discarded:
                continue
            case .joined(let data, let finalStatus):
                advertisement.data = data[...]
                advertisement.dataStatus = finalStatus
                body(advertisement)
            case .overflowed:
                throw DecodeError(
                    field: "report \(report) Data", offset: dataStart - base + 2,
                    reason: "reassembled advertising data exceeds \(FragmentReassembler.maximumDataLength) bytes; sequence discarded"
                )
            }
        }
    }

    /// Legacy PDUs inside extended reports use fixed bit patterns (Core 5.4 Vol 4 Part E 7.7.65.13,
    /// Table 7.1); anything else is a genuinely extended advertisement.
    static func kind(extendedProperties properties: UInt16) -> AdvertisingEventKind {
        guard properties & 0x10 != 0 else { return .extended }
        switch properties & 0x0F {
        case 0b0011: return .advInd
        case 0b0101: return .advDirectInd
        case 0b0010: return .advScanInd
        case 0b0000: return .advNonconnInd
        case 0b1011, 0b1010: return .scanRsp
        default: return .advInd
        }
    }
}
