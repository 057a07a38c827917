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
        guard packet.type == .event, packet.direction == .controllerToHost else { return }
        let p = packet.payload
        let s = p.startIndex
        // Event header: code, parameter length; LE Meta Event 0x3E carries a subevent code first.
        guard p.count >= 3, p[s] == 0x3E else { return }
        let declared = Int(p[s + 1])
        guard declared + 2 <= p.count else {
            throw DecodeError(field: "parameter length", offset: 1, reason: "says \(declared) bytes, \(p.count - 2) present")
        }
        let params = p[(s + 2)..<(s + 2 + declared)]
        switch p[s + 2] {
        case 0x02: try decodeLegacy(params, at: packet.timestamp, body)
        case 0x0D: try decodeExtended(params, at: packet.timestamp, body)
        default: return
        }
    }

    /// Reports follow each other as whole records (event type, address type, address, length,
    /// data, RSSI), which is how controllers, BlueZ and Wireshark lay them out. A count that
    /// promises more reports than the bytes hold throws at the first missing one.
    private func decodeLegacy(_ params: ArraySlice<UInt8>, at time: Double, _ body: (Advertisement) -> Void) throws(DecodeError) {
        let base = params.startIndex
        guard params.count >= 2 else {
            throw DecodeError(field: "Num_Reports", offset: 3, reason: "missing")
        }
        let count = Int(params[base + 1])
        var i = base + 2
        for report in 0..<count {
            guard i + 9 <= params.endIndex else {
                throw DecodeError(field: "report \(report) header", offset: i - base + 2, reason: "event ends after \(report) of \(count) reports")
            }
            let length = Int(params[i + 8])
            let dataStart = i + 9
            guard dataStart + length + 1 <= params.endIndex else {
                throw DecodeError(field: "report \(report) Data_Length", offset: i + 8 - base + 2, reason: "\(length) data bytes and RSSI run past the event")
            }
            let rssiByte = Int8(bitPattern: params[dataStart + length])
            body(Advertisement(
                timestamp: time,
                address: BDAddress(littleEndian: params, at: i + 2),
                addressType: AddressType(code: params[i + 1]),
                eventKind: AdvertisingEventKind(rawValue: params[i]) ?? .advInd,
                rssi: rssiByte == 127 ? nil : rssiByte,
                data: params[dataStart..<(dataStart + length)]
            ))
            i = dataStart + length + 1
        }
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
