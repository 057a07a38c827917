import HCI

/// Turns one pcap/pcapng record of a Bluetooth link type into an HCI packet.
///
/// HCI link types map directly. Link-layer sniffer captures (251, 256, 272) hold over-the-air PDUs
/// instead; their advertising PDUs become the LE Advertising Report event a controller would have
/// sent (`LinkLayerAdvertisement`), so everything downstream sees one kind of input.
enum LinkTypeDecoder {
    enum Outcome {
        case hci(HCIPacket)
        /// A record of a known type that is not an HCI packet (monitor notes, index events).
        case notHCI
        /// A link-layer record that is no advertisement: data channel, SCAN_REQ, CONNECT_IND, CRC error.
        case notAdvertising
        case unsupported
        case malformed(String)
    }

    static func decode(linkType: UInt32, data: ArraySlice<UInt8>, timestamp: Double) -> Outcome {
        let s = data.startIndex
        switch linkType {
        case LinkType.bluetoothHCIH4WithPseudoHeader:
            guard data.count >= 5 else { return .malformed("\(data.count) bytes, shorter than the direction header and H4 indicator") }
            // Direction is a 32-bit big-endian word; only bit 0 is defined (1 = received).
            let received = data[s + 3] & 1 != 0
            guard let type = H4PacketType(rawValue: data[s + 4]) else {
                return .malformed("unknown H4 packet indicator 0x\(String(data[s + 4], radix: 16))")
            }
            return .hci(HCIPacket(timestamp: timestamp, direction: received ? .controllerToHost : .hostToController,
                                  type: type, payload: data[(s + 5)...]))
        case LinkType.bluetoothHCIH4:
            guard data.count >= 1, let type = H4PacketType(rawValue: data[s]) else {
                return .malformed(data.isEmpty ? "empty H4 record" : "unknown H4 packet indicator 0x\(String(data[s], radix: 16))")
            }
            // No direction is recorded; commands go to the controller, everything else is taken as received.
            return .hci(HCIPacket(timestamp: timestamp, direction: type == .command ? .hostToController : .controllerToHost,
                                  type: type, payload: data[(s + 1)...]))
        case LinkType.bluetoothLinuxMonitor:
            guard data.count >= 4 else { return .malformed("\(data.count) bytes, shorter than the 4-byte monitor header") }
            let opcode = UInt16(data[s + 2]) << 8 | UInt16(data[s + 3])
            guard let (type, direction) = MonitorPacketDecoder.packetKind(opcode: opcode) else { return .notHCI }
            return .hci(HCIPacket(timestamp: timestamp, direction: direction, type: type, payload: data[(s + 4)...]))
        case LinkType.bluetoothLELL:
            return LinkLayerAdvertisement.decodeLL(data, timestamp: timestamp)
        case LinkType.bluetoothLELLWithPseudoHeader:
            return LinkLayerAdvertisement.decodeLLWithPseudoHeader(data, timestamp: timestamp)
        case LinkType.nordicBLE:
            return LinkLayerAdvertisement.decodeNordic(data, timestamp: timestamp)
        default:
            return .unsupported
        }
    }
}
