/// LE Extended Advertising Report events (Core 5.4 Vol 4 Part E 7.7.65.13), the inverse of the
/// extended path of `AdvertisingReportDecoder`, including the split of long data into fragments
/// that a controller performs. The simulator and the reassembly tests use it.
extension AdvertisingReportEncoder {
    /// Fixed bytes of one extended report before its data.
    public static let extendedReportHeaderLength = 24
    /// The most data one report can carry when it is alone in an event: 255 parameter bytes less
    /// the subevent code, Num_Reports and the report header.
    public static let maximumExtendedFragmentLength = 255 - 2 - extendedReportHeaderLength

    /// Event_Type bits for `advertisement` with the given data status: the legacy bit pattern of
    /// Table 7.1 for legacy kinds, else `extendedProperties` with the legacy and status bits replaced.
    public static func extendedEventType(for advertisement: Advertisement, status: AdvertisingDataStatus) -> UInt16 {
        let legacy: UInt16
        switch advertisement.eventKind {
        case .advInd: legacy = 0b0001_0011
        case .advDirectInd: legacy = 0b0001_0101
        case .advScanInd: legacy = 0b0001_0010
        case .advNonconnInd: legacy = 0b0001_0000
        case .scanRsp: legacy = 0b0001_1011
        case .extended:
            return (advertisement.extendedProperties & ~0b0111_0000) | UInt16(status.rawValue) << 5
        }
        return legacy
    }

    /// One LE Meta event holding one extended report per advertisement, as an H4 event payload
    /// (event code first). Each report's data status is the advertisement's `dataStatus`
    /// (`.moreToCome` marks a fragment). The reports must fit in 255 parameter bytes.
    public static func extendedReportEvent(_ advertisements: [Advertisement]) -> [UInt8] {
        var params: [UInt8] = [0x0D, UInt8(advertisements.count)]
        for ad in advertisements {
            let eventType = extendedEventType(for: ad, status: ad.dataStatus)
            let isLegacy = eventType & 0x10 != 0
            params.append(UInt8(eventType & 0xFF))
            params.append(UInt8(eventType >> 8))
            params.append(ad.addressType.rawValue)
            params.append(contentsOf: ad.address.littleEndianBytes)
            params.append(0x01)                        // Primary_PHY: LE 1M
            params.append(isLegacy ? 0x00 : 0x01)      // Secondary_PHY: none for legacy PDUs
            params.append(ad.setID ?? 0xFF)
            params.append(UInt8(bitPattern: ad.txPower ?? 127))
            params.append(UInt8(bitPattern: ad.rssi ?? 127))
            params.append(contentsOf: [0x00, 0x00])    // Periodic_Advertising_Interval: none
            params.append(0x00)                        // Direct_Address_Type
            params.append(contentsOf: [UInt8](repeating: 0, count: 6))
            params.append(UInt8(ad.data.count))
            params.append(contentsOf: ad.data)
        }
        precondition(params.count <= 255, "extended advertising report event longer than 255 parameter bytes")
        return [0x3E, UInt8(params.count)] + params
    }

    /// The events a controller sends for `advertisement`: its data cut into fragments of at most
    /// `maximumFragmentLength` bytes (1...229), one report per event, every fragment but the last
    /// marked "more to come" and the last carrying `advertisement.dataStatus` (`.complete`, or
    /// `.truncated` to imitate a controller that lost the chain). Empty data gives one event.
    public static func extendedReportEvents(
        fragmenting advertisement: Advertisement, maximumFragmentLength: Int = maximumExtendedFragmentLength
    ) -> [[UInt8]] {
        let size = min(max(1, maximumFragmentLength), maximumExtendedFragmentLength)
        let data = advertisement.data
        let last: AdvertisingDataStatus = advertisement.dataStatus == .moreToCome ? .complete : advertisement.dataStatus
        var events: [[UInt8]] = []
        var start = data.startIndex
        repeat {
            let end = min(start + size, data.endIndex)
            var fragment = advertisement
            fragment.data = data[start..<end]
            fragment.dataStatus = end == data.endIndex ? last : .moreToCome
            events.append(extendedReportEvent([fragment]))
            start = end
        } while start < data.endIndex
        return events
    }

    /// `extendedReportEvents(fragmenting:maximumFragmentLength:)` as received packets at `time`.
    public static func extendedReportPackets(
        fragmenting advertisement: Advertisement, at time: Double, maximumFragmentLength: Int = maximumExtendedFragmentLength
    ) -> [HCIPacket] {
        extendedReportEvents(fragmenting: advertisement, maximumFragmentLength: maximumFragmentLength).map {
            HCIPacket(timestamp: time, direction: .controllerToHost, type: .event, payload: $0[...])
        }
    }
}
