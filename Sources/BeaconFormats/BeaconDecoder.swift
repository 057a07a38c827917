import HCI

/// Finds the beacon frames, if any, in one advertisement's AD structures. Pure, and allocation-free
/// for iBeacon, the hot path of every replay.
public enum BeaconDecoder {
    /// The first beacon frame in `data`, or nil when the advertisement is not a beacon (or is a
    /// malformed one: a beacon whose structure is cut short is no beacon).
    public static func decode(_ data: ArraySlice<UInt8>) -> BeaconFrame? {
        var first: BeaconFrame?
        let bytes = data.span
        walkFrames(in: bytes, bounds: 0..<bytes.count) { frame in
            first = frame
            return false
        }
        return first
    }

    /// Every beacon frame in `data`, in order: one advertisement may carry several (an iBeacon and
    /// an Eddystone-TLM, say).
    public static func forEachFrame(in data: ArraySlice<UInt8>, _ body: (BeaconFrame) -> Void) {
        let bytes = data.span
        forEachFrame(in: bytes, bounds: 0..<bytes.count, body)
    }

    /// Every beacon frame in `bytes[bounds]` (a legacy report's data inside its packet), in order.
    @inlinable
    public static func forEachFrame(in bytes: borrowing Span<UInt8>, bounds: Range<Int>, _ body: (BeaconFrame) -> Void) {
        walkFrames(in: bytes, bounds: bounds) { frame in
            body(frame)
            return true
        }
    }

    /// The frames in `bytes[bounds]`, in order, until `body` returns false.
    ///
    /// Walks the structures by index rather than through `ADStructures` and reads iBeacon in place
    /// from a span: slices retain their storage, and at millions of reports a second those retains
    /// were most of the decoding time (perf, `beacontop-bench replay-stages`). Inlinable, with the
    /// iBeacon parser, so the capture decoders in other modules call no function per iBeacon frame.
    /// The walk stops exactly where `ADStructures` stops: at a zero length or an overrun.
    @inlinable
    static func walkFrames(in bytes: borrowing Span<UInt8>, bounds: Range<Int>, _ body: (BeaconFrame) -> Bool) {
        var position = max(bounds.lowerBound, 0)
        let end = min(bounds.upperBound, bytes.count)
        while position < end {
            let length = Int(bytes[position])
            let next = position &+ 1 &+ length
            guard length > 0, next <= end else { return }
            let frame: BeaconFrame?
            switch bytes[position &+ 1] {
            case ADType.manufacturerSpecificData:
                if let beacon = IBeaconParser.parse(bytes, valueStart: position &+ 2, valueEnd: next) {
                    frame = .iBeacon(beacon)
                } else {
                    frame = altBeacon(in: bytes, position &+ 2..<next).map { .altBeacon($0) }
                }
            case ADType.serviceData16:
                frame = eddystone(in: bytes, position &+ 2..<next)
            default:
                frame = nil
            }
            if let frame, !body(frame) { return }
            position = next
        }
    }

    /// The other kinds are parsed from a copy of their structure's value: their frames hold arrays
    /// or strings anyway, and they are rare next to iBeacon.
    @usableFromInline
    static func altBeacon(in bytes: borrowing Span<UInt8>, _ range: Range<Int>) -> AltBeaconFrame? {
        AltBeaconParser.parse(copy(of: bytes, range)[...])
    }

    @usableFromInline
    static func eddystone(in bytes: borrowing Span<UInt8>, _ range: Range<Int>) -> BeaconFrame? {
        EddystoneParser.parse(copy(of: bytes, range)[...])
    }

    private static func copy(of bytes: borrowing Span<UInt8>, _ range: Range<Int>) -> [UInt8] {
        Array(unsafeUninitializedCapacity: range.count) { buffer, count in
            for offset in 0..<range.count { buffer[offset] = bytes[range.lowerBound + offset] }
            count = range.count
        }
    }
}
