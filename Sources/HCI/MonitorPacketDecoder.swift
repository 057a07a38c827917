/// Reads packets of the kernel monitor channel (Linux `include/net/bluetooth/hci_mon.h`): a header
/// of opcode (2), adapter index (2), length (2), all little-endian, then the packet without an H4
/// indicator. Its opcode table is also the one btsnoop datalink 2001 (`btmon -w`) files use. Opcodes say type and direction; index and system notes are skipped,
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
        guard let (type, direction) = packetKind(opcode: opcode) else { return nil }
        return HCIPacket(timestamp: time, direction: direction, type: type, payload: Array(payload)[...])
    }

    /// The monitor opcodes that carry HCI packets (Linux `hci_mon.h` `HCI_MON_*`, the same numbers
    /// as BlueZ's `BTSNOOP_OPCODE_*` in btsnoop datalink 2001 files); nil for the rest (new/deleted
    /// index, index info, system notes, user logging, control channel).
    public static func packetKind(opcode: UInt16) -> (H4PacketType, PacketDirection)? {
        switch opcode {
        case 2: (.command, .hostToController)
        case 3: (.event, .controllerToHost)
        case 4: (.aclData, .hostToController)
        case 5: (.aclData, .controllerToHost)
        case 6: (.scoData, .hostToController)
        case 7: (.scoData, .controllerToHost)
        case 18: (.isoData, .hostToController)
        case 19: (.isoData, .controllerToHost)
        default: nil
        }
    }
}
