import HCI

/// One pcapng Interface Description Block: what its packets are and how its clock ticks.
struct PCAPNGInterface: Sendable {
    var linkType: UInt32
    var snapLength: UInt32
    /// Timestamp units per second (`if_tsresol`: 10^n, or 2^n when the top bit is set; default 10^6).
    var ticksPerSecond: UInt64 = 1_000_000
    /// `if_tsoffset`: seconds to add to every timestamp of this interface.
    var offsetSeconds: Double = 0
}

/// pcapng (draft-ietf-opsawg-pcapng): blocks of type, total length, body, total length again.
/// Each Section Header Block sets the byte order (its magic 1a2b3c4d) and starts a fresh list of
/// interfaces; Enhanced, Simple and obsolete Packet Blocks carry the packets; every other block
/// (name resolution, statistics, custom, ...) is skipped whole.
extension CaptureReader {
    enum BlockType {
        static let sectionHeader: UInt32 = 0x0A0D_0D0A
        static let interfaceDescription: UInt32 = 1
        static let obsoletePacket: UInt32 = 2
        static let simplePacket: UInt32 = 3
        static let enhancedPacket: UInt32 = 6
    }

    /// Larger blocks are impossible for Bluetooth and almost certainly a corrupt length.
    static let maxBlockLength = 16 * 1024 * 1024

    static func blockName(_ type: UInt32) -> String {
        switch type {
        case BlockType.sectionHeader: "pcapng Section Header Block"
        case BlockType.interfaceDescription: "pcapng Interface Description Block"
        case BlockType.obsoletePacket: "pcapng Packet Block"
        case BlockType.simplePacket: "pcapng Simple Packet Block"
        case BlockType.enhancedPacket: "pcapng Enhanced Packet Block"
        default: "pcapng block of type 0x\(String(type, radix: 16))"
        }
    }

    /// The first Section Header Block is the file's header: a file cut inside it holds no record,
    /// so it is refused as a btsnoop or pcap file cut inside its header is (it read as an empty
    /// capture with a warning, and status 0). So is a file cut inside the Interface Description
    /// Block after it: no packet can be read without one. Leaves the blocks unread; a bad
    /// byte-order magic or length is left for `nextPCAPNG` to name.
    static func checkPCAPNGSectionHeader(_ input: inout BlockFileInput, path: String) throws(CaptureError) {
        let name = blockName(BlockType.sectionHeader)
        guard try input.fill(12) else {
            throw .corrupt(path: path, field: name, offset: 0, reason: "file ends after \(input.available) of at least 12 bytes")
        }
        let bigEndian: Bool
        switch input.uint32(at: input.start + 8, bigEndian: false) {
        case 0x1A2B_3C4D: bigEndian = false
        case 0x4D3C_2B1A: bigEndian = true
        default: return
        }
        let length = Int(input.uint32(at: input.start + 4, bigEndian: bigEndian))
        guard length >= 12, length <= BlockFileInput.bufferSize else { return }
        guard try input.fill(length) else {
            throw .corrupt(path: path, field: name, offset: 0, reason: "file ends after \(input.available) of \(length) bytes")
        }
        try checkFirstInterface(&input, path: path, after: length, bigEndian: bigEndian)
    }

    /// A file that ends inside the Interface Description Block right after its Section Header
    /// Block (at `offset`) is refused as one cut inside its header: it read as an empty capture,
    /// a warning and status 0, where every other file with no usable record is status 1.
    private static func checkFirstInterface(_ input: inout BlockFileInput, path: String, after offset: Int, bigEndian: Bool) throws(CaptureError) {
        guard offset + 8 <= BlockFileInput.bufferSize else { return }
        _ = try input.fill(offset + 8)
        let present = input.available - offset
        guard present >= 4, input.uint32(at: input.start + offset, bigEndian: bigEndian) == BlockType.interfaceDescription else { return }
        let name = blockName(BlockType.interfaceDescription)
        guard present >= 8 else {
            throw .corrupt(path: path, field: name, offset: offset, reason: "file ends after \(present) of at least 8 bytes")
        }
        let length = Int(input.uint32(at: input.start + offset + 4, bigEndian: bigEndian))
        guard length >= 20, offset + length <= BlockFileInput.bufferSize, try !input.fill(offset + length) else { return }
        throw .corrupt(path: path, field: name, offset: offset, reason: "file ends after \(input.available - offset) of \(length) bytes")
    }

    mutating func nextPCAPNG() throws(CaptureError) -> HCIPacket? {
        while true {
            guard try input.fill(8) else {
                noteEndOfFile(inside: "pcapng block header", needed: 8)
                return nil
            }
            let type = input.uint32(at: input.start, bigEndian: sectionBigEndian)
            if type == BlockType.sectionHeader {
                guard try input.fill(12) else {
                    noteEndOfFile(inside: Self.blockName(type), needed: 12)
                    return nil
                }
                switch input.uint32(at: input.start + 8, bigEndian: false) {
                case 0x1A2B_3C4D: sectionBigEndian = false
                case 0x4D3C_2B1A: sectionBigEndian = true
                default: throw corrupt("pcapng byte-order magic", at: input.offset + 8, "0x\(input.hexPrefix(12).suffix(8)) is neither 1a2b3c4d nor 4d3c2b1a")
                }
            }
            let blockOffset = input.offset
            let length = Int(input.uint32(at: input.start + 4, bigEndian: sectionBigEndian))
            guard length >= 12, length % 4 == 0, length <= Self.maxBlockLength else {
                throw corrupt("pcapng block total length", at: blockOffset + 4,
                              "\(length) (must be a multiple of 4 between 12 and \(Self.maxBlockLength))")
            }
            let isPacket = type == BlockType.enhancedPacket || type == BlockType.simplePacket || type == BlockType.obsoletePacket
            // A section or interface header larger than the buffer (options of up to 64 KiB each: a
            // long comment or if_description) was skipped whole like an unknown block: a second
            // section kept the first one's interfaces, and a skipped interface shifted every later
            // one, so packets were read with another interface's link type and clock. Such a block
            // is read whole into memory of its own (at most maxBlockLength) and handled as any other.
            if length > BlockFileInput.bufferSize, type == BlockType.sectionHeader || type == BlockType.interfaceDescription {
                guard let bytes = try input.take(length) else {
                    truncation = CaptureTruncation(what: Self.blockName(type), offset: blockOffset, needed: length, present: input.offset - blockOffset)
                    return nil
                }
                try headerBlock(type, in: BlockFileInput(bytes: bytes, name: path), at: 0, length: length, blockOffset: blockOffset)
                continue
            }
            if length > BlockFileInput.bufferSize {
                // Counted under its own interface's link type (it was counted under the first's):
                // the interface number sits in the first 12 bytes, read before the block is skipped.
                var linkType = interfaces.first?.linkType ?? 0
                if type != BlockType.simplePacket, try input.fill(12) {
                    let interface = type == BlockType.enhancedPacket
                        ? Int(input.uint32(at: input.start + 8, bigEndian: sectionBigEndian))
                        : Int(input.uint16(at: input.start + 8, bigEndian: sectionBigEndian))
                    if interface < interfaces.count { linkType = interfaces[interface].linkType }
                }
                guard try input.skip(length) else {
                    truncation = CaptureTruncation(what: Self.blockName(type), offset: blockOffset, needed: length, present: input.offset - blockOffset)
                    return nil
                }
                if isPacket {
                    recordCount += 1
                    skippedRecords[linkType, default: 0] += 1
                }
                continue
            }
            guard try input.fill(length) else {
                noteEndOfFile(inside: Self.blockName(type), needed: length)
                return nil
            }
            let s = input.start
            let trailer = Int(input.uint32(at: s + length - 4, bigEndian: sectionBigEndian))
            guard trailer == length else {
                throw corrupt("pcapng trailing block total length", at: blockOffset + length - 4, "\(trailer), the block header says \(length)")
            }
            input.start += length
            switch type {
            case BlockType.sectionHeader, BlockType.interfaceDescription:
                try headerBlock(type, in: input, at: s, length: length, blockOffset: blockOffset)
            case BlockType.enhancedPacket, BlockType.obsoletePacket:
                recordCount += 1
                recordOffset = blockOffset
                guard length >= 32 else { throw malformed(at: blockOffset, "packet block of \(length) bytes, at least 32 needed") }
                let interface = type == BlockType.enhancedPacket
                    ? Int(input.uint32(at: s + 8, bigEndian: sectionBigEndian))
                    : Int(input.uint16(at: s + 8, bigEndian: sectionBigEndian))
                let ticks = UInt64(input.uint32(at: s + 12, bigEndian: sectionBigEndian)) << 32
                    | UInt64(input.uint32(at: s + 16, bigEndian: sectionBigEndian))
                let captured = Int(input.uint32(at: s + 20, bigEndian: sectionBigEndian))
                guard 28 + captured + 4 <= length else {
                    throw malformed(at: blockOffset + 20, "captured length \(captured) runs past the \(length)-byte block")
                }
                guard interface < interfaces.count else {
                    throw malformed(at: blockOffset + 8, "interface \(interface) was never described (\(interfaces.count) interfaces)")
                }
                let description = interfaces[interface]
                // Whole seconds and the remainder apart: nanosecond ticks since 1970 exceed a Double's 53 bits.
                let perSecond = description.ticksPerSecond
                let timestamp = Double(ticks / perSecond) + Double(ticks % perSecond) / Double(perSecond) + description.offsetSeconds
                guard TimestampPolicy.accepts(timestamp) else { throw malformed(at: blockOffset + 12, TimestampPolicy.refusal(timestamp)) }
                lastTimestamp = timestamp
                let original = Int(input.uint32(at: s + 24, bigEndian: sectionBigEndian))
                recordCut = original > captured ? (captured, original) : nil
                let data = input.buffer[(s + 28)..<(s + 28 + captured)]
                if let packet = try packet(linkType: description.linkType, data: data, timestamp: timestamp) { return packet }
            case BlockType.simplePacket:
                recordCount += 1
                recordOffset = blockOffset
                guard length >= 16 else { throw malformed(at: blockOffset, "Simple Packet Block of \(length) bytes, at least 16 needed") }
                guard let description = interfaces.first else {
                    throw malformed(at: blockOffset, "Simple Packet Block before any Interface Description Block")
                }
                let original = Int(input.uint32(at: s + 8, bigEndian: sectionBigEndian))
                var captured = min(original, length - 16)
                if description.snapLength > 0 { captured = min(captured, Int(description.snapLength)) }
                recordCut = original > captured ? (captured, original) : nil
                let data = input.buffer[(s + 12)..<(s + 12 + captured)]
                if let packet = try packet(linkType: description.linkType, data: data, timestamp: lastTimestamp) { return packet }
            default:
                continue
            }
        }
    }

    /// A Section Header Block (version checked, interfaces forgotten) or an Interface Description
    /// Block (one more interface) of `length` bytes at `s` in `block`, its trailer checked.
    mutating func headerBlock(_ type: UInt32, in block: BlockFileInput, at s: Int, length: Int, blockOffset: Int) throws(CaptureError) {
        let trailer = Int(block.uint32(at: s + length - 4, bigEndian: sectionBigEndian))
        guard trailer == length else {
            throw corrupt("pcapng trailing block total length", at: blockOffset + length - 4, "\(trailer), the block header says \(length)")
        }
        if type == BlockType.sectionHeader {
            let major = block.uint16(at: s + 12, bigEndian: sectionBigEndian)
            guard major == 1 else { throw .unsupported(path: path, what: "pcapng version \(major) at byte \(blockOffset)") }
            interfaces = []
        } else {
            guard length >= 20 else { throw corrupt("pcapng Interface Description Block", at: blockOffset, "\(length) bytes, at least 20 needed") }
            interfaces.append(readInterface(in: block, body: s + 8, end: s + length - 4))
        }
    }

    /// Link type, snap length and the two options that change timestamps. Options are code,
    /// length (both 16-bit), value padded to 4 bytes; code 0 ends them.
    func readInterface(in input: BlockFileInput, body: Int, end: Int) -> PCAPNGInterface {
        var interface = PCAPNGInterface(
            linkType: UInt32(input.uint16(at: body, bigEndian: sectionBigEndian)),
            snapLength: input.uint32(at: body + 4, bigEndian: sectionBigEndian)
        )
        var option = body + 8
        while option + 4 <= end {
            let code = input.uint16(at: option, bigEndian: sectionBigEndian)
            let length = Int(input.uint16(at: option + 2, bigEndian: sectionBigEndian))
            let value = option + 4
            guard code != 0, value + length <= end else { break }
            if code == 9, length >= 1 {
                let resolution = input.buffer[value]
                // 10^19 and 2^63 are the largest that fit in 64 bits; larger is nonsense, keep the default.
                let exponent = Int(resolution & 0x7F)
                if resolution & 0x80 == 0, exponent <= 19 {
                    interface.ticksPerSecond = (0..<exponent).reduce(UInt64(1)) { value, _ in value * 10 }
                } else if resolution & 0x80 != 0, exponent <= 63 {
                    interface.ticksPerSecond = UInt64(1) << UInt64(exponent)
                }
            } else if code == 14, length >= 8 {
                interface.offsetSeconds = Double(Int64(bitPattern: input.uint64(at: value, bigEndian: sectionBigEndian)))
            }
            option = value + (length + 3) & ~3
        }
        return interface
    }
}
