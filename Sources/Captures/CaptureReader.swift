import HCI

/// Reads HCI packets out of a btsnoop, pcap or pcapng file, one at a time, in constant memory.
///
/// The format is sniffed from the magic bytes. Each `next()` returns the following HCI packet,
/// with its timestamp in Unix seconds, its direction, its H4 type and its payload as a slice of
/// the read buffer (valid until you drop it; copy with `Array(payload)` to keep it cheaply past
/// the next call). A file cut mid-record ends quietly after its last whole record, and
/// `truncation` then says where; a corrupt header field throws `.corrupt`, naming field and offset.
///
/// One concrete type with a switch on the format, rather than a protocol per format: the replay
/// loop calls `next()` millions of times a second and existential dispatch would cost more than
/// the parsing.
public struct CaptureReader: Sendable {
    public let path: String
    public let format: CaptureFormat
    var input: BlockFileInput
    /// pcapng state: the current section's byte order and its interfaces.
    var sectionBigEndian = false
    var interfaces: [PCAPNGInterface] = []
    /// Time of the last packet, given to Simple Packet Blocks (which carry none).
    var lastTimestamp: Double = 0
    var finished = false

    /// Packet records read so far (btsnoop records, pcap records, pcapng packet blocks), whether
    /// or not they held an HCI packet: the "packets" count Wireshark shows.
    public internal(set) var recordCount = 0
    /// File offset of the record the last returned packet (or thrown malformed record) came from.
    public internal(set) var recordOffset = 0
    /// The current record's captured and original lengths when the snap length cut it.
    var recordCut: (captured: Int, original: Int)?
    /// Set when the file ended inside a record (after every whole record was returned).
    public internal(set) var truncation: CaptureTruncation?
    /// Records skipped because their link type is not one this reader decodes, by link type.
    public internal(set) var skippedRecords: [UInt32: Int] = [:]
    /// Link-layer records that held no advertisement (data-channel PDUs, scan requests, CRC errors).
    public internal(set) var nonAdvertisingLinkLayerRecords = 0

    /// Largest HCI packet with its indicator or monitor header: 1 + 4 + 65535 (ACL) rounded up.
    static let maxHCIRecordLength = 65_544

    public init(path: String) throws(CaptureError) {
        try self.init(input: BlockFileInput(path: path))
    }

    /// Reads a capture already in memory, exactly as the file holding these bytes would be read;
    /// `name` stands for the path in errors. The fuzz harnesses read their inputs this way.
    public init(bytes: [UInt8], name: String) throws(CaptureError) {
        try self.init(input: BlockFileInput(bytes: bytes, name: name))
    }

    private init(input: BlockFileInput) throws(CaptureError) {
        var input = input
        let path = input.path
        self.path = path
        guard try input.fill(8) else {
            if let packing = CaptureFormat.packing(of: Array(input.buffer[input.start..<(input.start + input.available)]), path: path) {
                throw .unsupported(path: path, what: packing)
            }
            throw .unknownFormat(path: path, magic: input.available == 0 ? "none: the file is empty" : input.hexPrefix(8))
        }
        let s = input.start
        let magicLE = input.uint32(at: s, bigEndian: false)
        if Array(input.buffer[s..<(s + 8)]) == CaptureFormat.btsnoopMagic {
            format = try Self.readBTSnoopHeader(&input, path: path)
        } else if magicLE == 0x0A0D_0D0A {
            try Self.checkPCAPNGSectionHeader(&input, path: path)
            format = .pcapng
        } else if [0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1].contains(magicLE) {
            format = try Self.readPCAPHeader(&input, path: path)
        } else if let packing = CaptureFormat.packing(of: Array(input.buffer[s..<(s + 8)]), path: path) {
            throw .unsupported(path: path, what: packing)
        } else {
            throw .unknownFormat(path: path, magic: input.hexPrefix(8))
        }
        self.input = input
    }

    /// The next HCI packet, or nil at the end of the file (check `truncation` then).
    /// After a `.malformedRecord` error the next call carries on; after any other error, nil.
    public mutating func next() throws(CaptureError) -> HCIPacket? {
        var packet = HCIPacket.empty
        return try next(into: &packet) ? packet : nil
    }

    /// As `next()`, writing the packet into `packet` and returning false at the end of the file.
    /// The replay loops use this form: an optional packet was destroyed through the runtime's
    /// generic value witnesses, a third of the cost of reading a record (callgrind).
    public mutating func next(into packet: inout HCIPacket) throws(CaptureError) -> Bool {
        // The previous packet's payload is a view of the read buffer: let go of it first, or the
        // next refill would find the buffer shared and copy all of it.
        packet.payload = []
        guard !finished else { return false }
        do throws(CaptureError) {
            let found: Bool
            switch format {
            case .btsnoop(let datalink):
                found = try nextBTSnoop(datalink: datalink, into: &packet)
            case .pcap(let linkType, let bigEndian, let nanoseconds):
                found = try assign(nextPCAP(linkType: linkType, bigEndian: bigEndian, nanoseconds: nanoseconds), to: &packet)
            case .pcapng:
                found = try assign(nextPCAPNG(), to: &packet)
            }
            if !found { finished = true }
            // An LE Meta event cut short cannot be decoded: said to be cut, not malformed. Other
            // packets go on as they are (an Android filtered log cuts ACL data on purpose).
            if found, let cut = recordCut, packet.type == .event, packet.payload.first == 0x3E {
                throw cutBySnapLength(cut)
            }
            return found
        } catch {
            if !error.isRecoverable { finished = true }
            throw error
        }
    }

    private func assign(_ next: HCIPacket?, to packet: inout HCIPacket) -> Bool {
        guard let next else { return false }
        packet = next
        return true
    }

    /// The file ended: cleanly when nothing is left, else in a torn record of `what` needing
    /// `needed` bytes (kept in `truncation`).
    mutating func noteEndOfFile(inside what: String, needed: Int) {
        if input.available > 0 {
            truncation = CaptureTruncation(what: what, offset: input.offset, needed: needed, present: input.available)
        }
    }

    func corrupt(_ field: String, at offset: Int, _ reason: String) -> CaptureError {
        .corrupt(path: path, field: field, offset: offset, reason: reason)
    }

    func cutBySnapLength(_ cut: (captured: Int, original: Int)) -> CaptureError {
        .cutBySnapLength(path: path, offset: recordOffset, captured: cut.captured, original: cut.original)
    }

    func malformed(at offset: Int, _ reason: String) -> CaptureError {
        .malformedRecord(path: path, offset: offset, reason: reason)
    }

    /// Turns one link-layer record into a packet: nil when it is not one (skipped), or throws
    /// `.malformedRecord` naming the record's offset.
    mutating func packet(linkType: UInt32, data: ArraySlice<UInt8>, timestamp: Double) throws(CaptureError) -> HCIPacket? {
        switch LinkTypeDecoder.decode(linkType: linkType, data: data, timestamp: timestamp) {
        case .hci(let packet): return packet
        case .notHCI: return nil
        case .notAdvertising:
            nonAdvertisingLinkLayerRecords += 1
            return nil
        case .unsupported:
            skippedRecords[linkType, default: 0] += 1
            return nil
        // A link-layer packet cut short has lost its CRC: why it does not decode is the cut.
        case .malformed(let reason): throw recordCut.map(cutBySnapLength) ?? malformed(at: recordOffset, reason)
        }
    }
}
