import HCI

/// The capture times of a capture's first and last records: what a player shows as its length.
public struct CaptureSpan: Sendable, Equatable {
    public var first: Double
    public var last: Double

    public init(first: Double, last: Double) {
        self.first = first
        self.last = last
    }

    /// Seconds from the first record to the last.
    public var seconds: Double { last - first }
}

extension CaptureReader {
    /// The span of the capture at `path` as it is now, or nil when it cannot be read or holds no
    /// record. btsnoop and pcap are skimmed through their record headers, skipping every record's
    /// body (a 1,000,000-report btsnoop file in a few milliseconds of parsing; the replay itself
    /// decodes and ranges every record); pcapng, whose timestamps need each interface's
    /// resolution, is read packet by packet without decoding them. A torn final record ends the
    /// span at the last whole record, as the replay ends there; a corrupt header ends it where
    /// reading stops. `time` maps each record's time in file order (the replay's clock, which
    /// takes a step back as a step of zero: `CaptureClock.replayLength`).
    public static func span(path: String, time: (Double) -> Double = { $0 }) -> CaptureSpan? {
        guard var reader = try? CaptureReader(path: path) else { return nil }
        return reader.skimSpan(time: time)
    }

    mutating func skimSpan(time map: (Double) -> Double) -> CaptureSpan? {
        var first: Double?
        var last = 0.0
        var packet = HCIPacket.empty
        while true {
            let time: Double?
            do {
                switch format {
                case .btsnoop: time = try nextBTSnoopRecordTime()
                case .pcap(_, let bigEndian, let nanoseconds): time = try nextPCAPRecordTime(bigEndian: bigEndian, nanoseconds: nanoseconds)
                case .pcapng: time = try next(into: &packet) ? packet.timestamp : nil
                }
            } catch {
                if error.isRecoverable { continue }
                break
            }
            guard let time = time.map(map) else { break }
            if first == nil { first = time }
            last = time
        }
        return first.map { CaptureSpan(first: $0, last: last) }
    }

    /// The next btsnoop record's time, its body skipped; nil at the end or at a torn record.
    private mutating func nextBTSnoopRecordTime() throws(CaptureError) -> Double? {
        guard try input.fill(24) else { return nil }
        let headerStart = input.start
        let included = Int(input.uint32(at: headerStart + 4, bigEndian: true))
        let micros = Int64(bitPattern: input.uint64(at: headerStart + 16, bigEndian: true))
        guard included <= Self.maxHCIRecordLength else {
            throw corrupt("btsnoop included length", at: input.offset + 4, "\(included) bytes")
        }
        let offset = input.offset
        guard try input.skip(24 + included) else { return nil }
        guard micros >= Self.btsnoopEpochOffset, micros - Self.btsnoopEpochOffset < TimestampPolicy.latestMicroseconds else {
            throw malformed(at: offset + 16, "timestamp out of range")
        }
        let unixMicros = micros - Self.btsnoopEpochOffset
        return Double(unixMicros / 1_000_000) + Double(unixMicros % 1_000_000) * 1e-6
    }

    /// The next pcap record's time, its body skipped; nil at the end or at a torn record.
    private mutating func nextPCAPRecordTime(bigEndian: Bool, nanoseconds: Bool) throws(CaptureError) -> Double? {
        guard try input.fill(16) else { return nil }
        let h = input.start
        let seconds = input.uint32(at: h, bigEndian: bigEndian)
        let fraction = input.uint32(at: h + 4, bigEndian: bigEndian)
        let included = Int(input.uint32(at: h + 8, bigEndian: bigEndian))
        guard included <= BlockFileInput.bufferSize - 16 else {
            throw corrupt("pcap included length", at: input.offset + 8, "\(included) bytes")
        }
        let offset = input.offset
        guard try input.skip(16 + included) else { return nil }
        let timestamp = Double(seconds) + Double(fraction) / (nanoseconds ? 1e9 : 1e6)
        guard TimestampPolicy.accepts(timestamp) else { throw malformed(at: offset, "timestamp out of range") }
        return timestamp
    }
}
