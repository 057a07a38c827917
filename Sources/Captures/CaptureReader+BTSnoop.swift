import HCI

/// btsnoop: a 16-byte file header ("btsnoop\0", version 1, datalink), then records of a 24-byte
/// big-endian header (original length, included length, flags, cumulative drops, timestamp in
/// microseconds since midnight 1 January of year 0 AD) and the packet bytes.
///
/// Flags bit 0 is the direction (0 sent by the host, 1 received), bit 1 is set for commands and
/// events (for H1, where no indicator byte says it). Datalink 2001 (`btmon -w`) puts the adapter
/// index in the high 16 bits of the flags field and a BlueZ monitor opcode in the low 16.
extension CaptureReader {
    /// Microseconds between 0 AD and the Unix epoch, as Wireshark's btsnoop reader uses.
    public static let btsnoopEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    static let btsnoopDatalinks: [UInt32: String] = [
        1001: "unframed HCI (H1)", 1002: "HCI UART (H4)", 1003: "BCSP", 1004: "three-wire UART (H5)", 2001: "Linux monitor",
        2002: "BlueZ simulator",
    ]

    static func readBTSnoopHeader(_ input: inout BlockFileInput, path: String) throws(CaptureError) -> CaptureFormat {
        guard try input.fill(16) else {
            throw .corrupt(path: path, field: "btsnoop file header", offset: 0, reason: "file ends after \(input.available) of 16 bytes")
        }
        let version = input.uint32(at: input.start + 8, bigEndian: true)
        let datalink = input.uint32(at: input.start + 12, bigEndian: true)
        guard version == 1 else { throw .unsupported(path: path, what: "btsnoop version \(version) (only 1 exists)") }
        guard [1001, 1002, 2001].contains(datalink) else {
            let name = btsnoopDatalinks[datalink].map { " (\($0))" } ?? ""
            throw .unsupported(path: path, what: "btsnoop datalink \(datalink)\(name); readable: 1001, 1002, 2001")
        }
        input.start += 16
        return .btsnoop(datalink: datalink)
    }

    mutating func nextBTSnoop(datalink: UInt32, into packet: inout HCIPacket) throws(CaptureError) -> Bool {
        while true {
            guard try input.fill(24) else {
                noteEndOfFile(inside: "btsnoop record header", needed: 24)
                return false
            }
            let headerStart = input.start
            let included = Int(input.uint32(at: headerStart + 4, bigEndian: true))
            // Read before the fill below, which may move the buffer's contents.
            let original = Int(input.uint32(at: headerStart, bigEndian: true))
            let flags = input.uint32(at: headerStart + 8, bigEndian: true)
            let micros = Int64(bitPattern: input.uint64(at: headerStart + 16, bigEndian: true))
            guard included <= Self.maxHCIRecordLength else {
                throw corrupt("btsnoop included length", at: input.offset + 4,
                              "\(included) bytes, more than any HCI packet (\(Self.maxHCIRecordLength))")
            }
            guard try input.fill(24 + included) else {
                noteEndOfFile(inside: "btsnoop record", needed: 24 + included)
                return false
            }
            recordOffset = input.offset
            recordCount += 1
            recordCut = original > included ? (included, original) : nil
            let dataStart = input.start + 24
            let dataEnd = dataStart + included
            input.start = dataEnd
            // Compared before subtracting: a time before year 0 would wrap around Int64.
            guard micros >= Self.btsnoopEpochOffset, micros - Self.btsnoopEpochOffset < TimestampPolicy.latestMicroseconds else {
                throw malformed(at: recordOffset + 16, TimestampPolicy.refusal(
                    (Double(micros) - Double(Self.btsnoopEpochOffset)) / 1e6))
            }
            // Whole seconds and microseconds apart: integer division by a constant is a multiply,
            // where a floating-point divide stalled this loop (perf); it is also exact to 1 µs.
            let unixMicros = micros - Self.btsnoopEpochOffset
            let timestamp = Double(unixMicros / 1_000_000) + Double(unixMicros % 1_000_000) * 1e-6
            let received = flags & 1 != 0
            switch datalink {
            case 1002:
                guard included >= 1 else { throw malformed(at: recordOffset, "empty H4 record (no packet indicator)") }
                let indicator = input.buffer[dataStart]
                guard let type = H4PacketType(rawValue: indicator) else {
                    throw malformed(at: recordOffset + 24, "unknown H4 packet indicator 0x\(String(indicator, radix: 16))")
                }
                packet = HCIPacket(timestamp: timestamp, direction: received ? .controllerToHost : .hostToController,
                                   type: type, payload: input.buffer[(dataStart + 1)..<dataEnd])
                return true
            case 1001:
                let type: H4PacketType = flags & 2 != 0 ? (received ? .event : .command) : .aclData
                packet = HCIPacket(timestamp: timestamp, direction: received ? .controllerToHost : .hostToController,
                                   type: type, payload: input.buffer[dataStart..<dataEnd])
                return true
            default:
                guard let (type, direction) = MonitorPacketDecoder.packetKind(opcode: UInt16(truncatingIfNeeded: flags)) else { continue }
                packet = HCIPacket(timestamp: timestamp, direction: direction, type: type, payload: input.buffer[dataStart..<dataEnd])
                return true
            }
        }
    }
}
