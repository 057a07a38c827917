import HCI

/// Reads packets of the kernel monitor channel (Linux `include/net/bluetooth/hci_mon.h`):
/// a header of opcode (2), adapter index (2), length (2), all little-endian, then the packet
/// without an H4 indicator. Opcodes say type and direction; index and system notes are skipped,
/// and so are packets of other adapters than `adapter` (the socket hears every adapter).
public enum MonitorPacketDecoder {
    public static func decode(_ bytes: ArraySlice<UInt8>, at time: Double, adapter: Int? = nil) throws(DecodeError) -> HCIPacket? {
        let s = bytes.startIndex
        guard bytes.count >= 6 else {
            throw DecodeError(field: "monitor header", offset: 0, reason: "\(bytes.count) of 6 bytes")
        }
        let opcode = UInt16(bytes[s]) | UInt16(bytes[s + 1]) << 8
        let length = Int(bytes[s + 4]) | Int(bytes[s + 5]) << 8
        guard bytes.count - 6 >= length else {
            throw DecodeError(field: "monitor length", offset: 4, reason: "says \(length) bytes, \(bytes.count - 6) present")
        }
        let index = Int(bytes[s + 2]) | Int(bytes[s + 3]) << 8
        if let adapter, index != adapter { return nil }
        let payload = bytes[(s + 6)..<(s + 6 + length)]
        let kind: (H4PacketType, PacketDirection)
        switch opcode {
        case 2: kind = (.command, .hostToController)
        case 3: kind = (.event, .controllerToHost)
        case 4: kind = (.aclData, .hostToController)
        case 5: kind = (.aclData, .controllerToHost)
        case 6: kind = (.scoData, .hostToController)
        case 7: kind = (.scoData, .controllerToHost)
        case 18: kind = (.isoData, .hostToController)
        case 19: kind = (.isoData, .controllerToHost)
        default: return nil
        }
        return HCIPacket(timestamp: time, direction: kind.1, type: kind.0, payload: Array(payload)[...])
    }
}
