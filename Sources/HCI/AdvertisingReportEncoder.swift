/// Builds LE Advertising Report events, the inverse of `AdvertisingReportDecoder`: what a
/// controller would send for the given advertisements. Used by the simulator, benchmarks and tests.
public enum AdvertisingReportEncoder {
    /// An LE Meta event with one LE Advertising Report (Core 5.4 Vol 4 Part E 7.7.65.2) holding
    /// `advertisements` (at most as many as fit in 255 parameter bytes), as an H4 event payload
    /// (event code first, no indicator byte).
    public static func legacyReportEvent(_ advertisements: [Advertisement]) -> [UInt8] {
        var params: [UInt8] = [0x02, UInt8(advertisements.count)]
        for ad in advertisements {
            params.append(ad.eventKind == .extended ? AdvertisingEventKind.advNonconnInd.rawValue : ad.eventKind.rawValue)
            params.append(ad.addressType.rawValue)
            params.append(contentsOf: ad.address.littleEndianBytes)
            params.append(UInt8(ad.data.count))
            params.append(contentsOf: ad.data)
            params.append(UInt8(bitPattern: ad.rssi ?? 127))
        }
        precondition(params.count <= 255, "advertising report event longer than 255 parameter bytes")
        return [0x3E, UInt8(params.count)] + params
    }

    /// The event as a received packet, ready for a capture writer or a decoder.
    public static func legacyReportPacket(_ advertisements: [Advertisement], at time: Double) -> HCIPacket {
        HCIPacket(timestamp: time, direction: .controllerToHost, type: .event, payload: legacyReportEvent(advertisements)[...])
    }
}
