/// One report of an LE Advertising Report event, read in place: its data is `data` (indices into
/// the caller's buffer), not a slice, so walking a packet's reports retains nothing.
public struct LegacyReport: Sendable {
    public var eventKind: AdvertisingEventKind
    public var addressType: AddressType
    public var address: BDAddress
    /// dBm; nil when the controller said 127 ("not available").
    public var rssi: Int8?
    public var data: Range<Int>

    @inlinable
    public init(eventKind: AdvertisingEventKind, addressType: AddressType, address: BDAddress, rssi: Int8?, data: Range<Int>) {
        self.eventKind = eventKind
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.data = data
    }
}

/// The report walk of LE Advertising Report (Core 5.4 Vol 4 Part E 7.7.65.2).
///
/// Reports follow each other as whole records (event type, address type, address, length, data,
/// RSSI), which is how controllers, BlueZ and Wireshark lay them out. A count that promises more
/// reports than the bytes hold throws at the first missing one; the reports before it have been
/// delivered. Error offsets count from the event code, as btmon prints them.
public enum LegacyReports {
    /// Calls `body` for each report of the event parameters `bytes[bounds]` (subevent code first);
    /// each report's `data` indexes `bytes`.
    ///
    /// Reads a span: no reference counting per report, one bounds check per read (slice subscripts
    /// made two, plus overflow checks, and their retains were most of a report's cost: callgrind).
    @inlinable
    public static func forEach(in bytes: borrowing Span<UInt8>, bounds: Range<Int>, _ body: (LegacyReport) -> Void) throws(DecodeError) {
        let base = max(bounds.lowerBound, 0)
        let end = min(bounds.upperBound, bytes.count)
        guard end - base >= 2 else {
            throw DecodeError(field: "Num_Reports", offset: 3, reason: "missing")
        }
        let raw = bytes.bytes
        let count = Int(bytes[base &+ 1])
        var i = base &+ 2
        for report in 0..<count {
            guard end - i >= 9 else {
                throw DecodeError(field: "report \(report) header", offset: i - base + 2, reason: "event ends after \(report) of \(count) reports")
            }
            let length = Int(bytes[i &+ 8])
            let dataStart = i &+ 9
            guard end - dataStart >= length &+ 1 else {
                throw DecodeError(field: "report \(report) Data_Length", offset: i + 8 - base + 2, reason: "\(length) data bytes and RSSI run past the event")
            }
            let low = UInt64(UInt32(littleEndian: raw.unsafeLoadUnaligned(fromByteOffset: i &+ 2, as: UInt32.self)))
            let high = UInt64(UInt16(littleEndian: raw.unsafeLoadUnaligned(fromByteOffset: i &+ 6, as: UInt16.self)))
            let rssiByte = Int8(bitPattern: bytes[dataStart &+ length])
            body(LegacyReport(
                eventKind: AdvertisingEventKind(legacyCode: bytes[i]),
                addressType: AddressType(code: bytes[i &+ 1]),
                address: BDAddress(rawValue: high << 32 | low),
                rssi: rssiByte == 127 ? nil : rssiByte,
                data: dataStart..<(dataStart &+ length)
            ))
            i = dataStart &+ length &+ 1
        }
    }
}
