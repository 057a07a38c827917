/// Cuts an H4 byte stream (UART, TCP or unix socket) into HCI packets.
///
/// H4 prefixes every packet with a one-byte indicator (Core 5.4 Vol 4 Part A 2) and each packet
/// type has its own header, which says how long the rest is (Core 5.4 Vol 4 Part E 5.4):
///
/// | indicator | packet | header | length field |
/// |---|---|---|---|
/// | 0x01 | command | opcode (2), length (1) | 1 byte at offset 2 |
/// | 0x02 | ACL data | handle+flags (2), length (2) | 2 bytes LE at offset 2 |
/// | 0x03 | SCO data | handle+flags (2), length (1) | 1 byte at offset 2 |
/// | 0x04 | event | code (1), length (1) | 1 byte at offset 1 |
/// | 0x05 | ISO data | handle+flags (2), length (2) | 14 bits LE at offset 2 (Part E 5.4.5) |
///
/// The framer is a state machine fed arbitrary chunks: bytes arrive however the transport splits
/// them, a header may straddle two reads. A byte that is no known indicator where one is expected
/// means the stream lost sync (a UART glitch, a controller that rebooted mid-packet): the framer
/// skips it, counts it, reports the run of skipped bytes once, and tries the next byte. H4 has no
/// framing marks, so this is the best any H4 host can do (BlueZ's h4 driver and Bumble do the same).
public struct H4Framer: Sendable {
    /// What the framer found: a whole packet, or a run of bytes it had to skip.
    public enum Output: Sendable, Equatable {
        /// A complete packet; `payload` is the header and parameters without the indicator byte.
        case packet(type: H4PacketType, payload: [UInt8])
        /// `count` bytes starting at stream offset `offset` were skipped because the first of them,
        /// `indicator`, is not an H4 packet indicator (0x01-0x05).
        case skipped(indicator: UInt8, offset: Int, count: Int)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of `buffer[start]`: how many bytes were consumed before it.
    private var consumed = 0
    /// A run of unknown bytes not yet reported (reported when sync is regained).
    private var pendingSkip: (indicator: UInt8, offset: Int, count: Int)?

    /// Every byte skipped so far, over the whole stream.
    public private(set) var skippedByteCount = 0
    /// Every packet delivered so far.
    public private(set) var packetCount = 0

    public init() {}

    /// Bytes held back waiting for the rest of a packet.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes as they arrived; call `next()` until it returns nil to take the packets out.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next packet or skip report, or nil when more bytes are needed.
    public mutating func next() -> Output? {
        while start < buffer.count {
            let indicator = buffer[start]
            guard let type = H4PacketType(rawValue: indicator) else {
                if pendingSkip == nil {
                    pendingSkip = (indicator, consumed, 0)
                }
                pendingSkip!.count += 1
                skippedByteCount += 1
                advance(by: 1)
                continue
            }
            if let skip = pendingSkip {
                pendingSkip = nil
                return .skipped(indicator: skip.indicator, offset: skip.offset, count: skip.count)
            }
            guard let total = packetLength(type: type, at: start + 1) else { return nil }
            guard buffer.count - start - 1 >= total else { return nil }
            let payload = Array(buffer[(start + 1)..<(start + 1 + total)])
            advance(by: 1 + total)
            packetCount += 1
            return .packet(type: type, payload: payload)
        }
        return nil
    }

    /// All packets and skip reports the buffered bytes hold.
    public mutating func drain() -> [Output] {
        var outputs: [Output] = []
        while let output = next() { outputs.append(output) }
        return outputs
    }

    /// Header plus parameter length of the packet whose header starts at `index`, or nil while
    /// the header has not fully arrived.
    private func packetLength(type: H4PacketType, at index: Int) -> Int? {
        let available = buffer.count - index
        switch type {
        case .command, .scoData:
            guard available >= 3 else { return nil }
            return 3 + Int(buffer[index + 2])
        case .event:
            guard available >= 2 else { return nil }
            return 2 + Int(buffer[index + 1])
        case .aclData:
            guard available >= 4 else { return nil }
            return 4 + (Int(buffer[index + 2]) | Int(buffer[index + 3]) << 8)
        case .isoData:
            // ISO_Data_Load_Length is 14 bits; the top two bits are reserved (Part E 5.4.5).
            guard available >= 4 else { return nil }
            return 4 + ((Int(buffer[index + 2]) | Int(buffer[index + 3]) << 8) & 0x3FFF)
        }
    }

    private mutating func advance(by count: Int) {
        start += count
        consumed += count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
    }
}
