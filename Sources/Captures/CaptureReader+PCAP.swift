import HCI

/// Classic pcap: a 24-byte header (magic, version, zone, sigfigs, snap length, link type) in the
/// writer's byte order, then records of a 16-byte header (seconds, micro- or nanoseconds,
/// included length, original length) and the packet bytes. The magic says byte order and
/// resolution: a1b2c3d4 microseconds, a1b23c4d nanoseconds (pcap-savefile(5)).
extension CaptureReader {
    static func readPCAPHeader(_ input: inout BlockFileInput, path: String) throws(CaptureError) -> CaptureFormat {
        guard try input.fill(24) else {
            throw .corrupt(path: path, field: "pcap file header", offset: 0, reason: "file ends after \(input.available) of 24 bytes")
        }
        let s = input.start
        let magicLE = input.uint32(at: s, bigEndian: false)
        let bigEndian = magicLE == 0xD4C3_B2A1 || magicLE == 0x4D3C_B2A1
        let nanoseconds = magicLE == 0xA1B2_3C4D || magicLE == 0x4D3C_B2A1
        let major = input.uint16(at: s + 4, bigEndian: bigEndian)
        guard major == 2 else { throw .unsupported(path: path, what: "pcap version \(major) (only 2 exists)") }
        // The top bits of the link type field may hold an FCS length; the type is the low 16 bits.
        let linkType = input.uint32(at: s + 20, bigEndian: bigEndian) & 0xFFFF
        guard LinkType.supported.contains(linkType) else {
            // Named as btsnoop datalinks are: 255 was "not a Bluetooth link type".
            let what = LinkType.unreadBluetooth[linkType].map { "pcap link type \(linkType) (\($0)) holds no LE advertisements" }
                ?? "pcap link type \(linkType) is not a Bluetooth link type"
            // From `supported`, so the list cannot fall behind it (it was written out by hand).
            let readable = LinkType.supported.sorted().map(String.init).joined(separator: ", ")
            throw .unsupported(path: path, what: what + " (readable: \(readable))")
        }
        input.start += 24
        return .pcap(linkType: linkType, bigEndian: bigEndian, nanoseconds: nanoseconds)
    }

    mutating func nextPCAP(linkType: UInt32, bigEndian: Bool, nanoseconds: Bool) throws(CaptureError) -> HCIPacket? {
        while true {
            guard try input.fill(16) else {
                noteEndOfFile(inside: "pcap record header", needed: 16)
                return nil
            }
            let h = input.start
            let seconds = input.uint32(at: h, bigEndian: bigEndian)
            let fraction = input.uint32(at: h + 4, bigEndian: bigEndian)
            let included = Int(input.uint32(at: h + 8, bigEndian: bigEndian))
            // Read before the fill below, which may move the buffer's contents.
            let original = Int(input.uint32(at: h + 12, bigEndian: bigEndian))
            let limit = BlockFileInput.bufferSize - 16
            guard included <= limit else {
                throw corrupt("pcap included length", at: input.offset + 8, "\(included) bytes, more than any Bluetooth packet")
            }
            guard try input.fill(16 + included) else {
                noteEndOfFile(inside: "pcap record", needed: 16 + included)
                return nil
            }
            recordOffset = input.offset
            recordCount += 1
            recordCut = original > included ? (included, original) : nil
            let dataStart = input.start + 16
            input.start = dataStart + included
            let timestamp = Double(seconds) + Double(fraction) / (nanoseconds ? 1e9 : 1e6)
            // 32-bit seconds end in 2106, but a fraction field can hold 4,294 s of "microseconds".
            guard TimestampPolicy.accepts(timestamp) else { throw malformed(at: recordOffset, TimestampPolicy.refusal(timestamp)) }
            if let packet = try packet(linkType: linkType, data: input.buffer[dataStart..<(dataStart + included)], timestamp: timestamp) {
                return packet
            }
        }
    }
}
