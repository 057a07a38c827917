import HCI

/// Legacy advertising PDUs heard over the air, turned into the LE Advertising Report a scanning
/// controller would deliver (Core 5.4 Vol 6 Part B 2.3: PDU header, then AdvA and AdvData).
///
/// Only the PDUs a scanner reports are kept: ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND and SCAN_RSP.
/// Scan and connect requests, data-channel packets and packets with a failed CRC are not adverts.
enum LinkLayerAdvertisement {
    /// The access address of every advertising-channel packet (Core 5.4 Vol 6 Part B 2.1.2).
    static let advertisingAccessAddress: UInt32 = 0x8E89_BED6
    /// The PHY code of LE Coded in both sniffer headers (Wireshark: "PHY: LE Coded (2)").
    static let codedPHY: UInt16 = 2

    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256): a 10-byte little-endian pseudo-header (RF
    /// channel, signal power, noise power, access-address offenses, reference access address,
    /// flags), then the packet from its access address, its 3-byte CRC last. Flags 0x0002: signal
    /// power valid; 0x0400: CRC checked; 0x0800: CRC valid. When the sniffer did not check the CRC,
    /// it is checked here, as Wireshark does: a real capture (ll-phdr-no-rssi.pcapng) flags none,
    /// and 310 of its 2810 advertising PDUs have a bad CRC, flipped bits that made other devices.
    static func decodeLLWithPseudoHeader(_ data: ArraySlice<UInt8>, timestamp: Double) -> LinkTypeDecoder.Outcome {
        let s = data.startIndex
        guard data.count >= 10 else { return .malformed("\(data.count) bytes, shorter than the 10-byte LE LL pseudo-header") }
        let flags = UInt16(data[s + 8]) | UInt16(data[s + 9]) << 8
        if flags & 0x0400 != 0 && flags & 0x0800 == 0 { return .notAdvertising }
        // Flags bits 14-15: the PHY. A legacy advertising PDU is only ever sent on LE 1M; a
        // coded packet has a coding-indicator byte before its header, which read as a header made
        // an ADV_EXT_IND an ADV_IND from an address that does not exist.
        if flags >> 14 == codedPHY { return .notAdvertising }
        let rssi: Int8? = flags & 0x0002 != 0 ? Int8(bitPattern: data[s + 1]) : nil
        let pdu = data[(s + 10)...]
        if flags & 0x0400 == 0, hasBadCRC(pdu) { return .notAdvertising }
        return report(pdu: pdu, rssi: rssi, timestamp: timestamp)
    }

    /// LINKTYPE_BLUETOOTH_LE_LL (251): the packet alone, from its access address to its CRC
    /// (Kismet and other sniffers). Nothing says the signal strength, the PHY or whether the CRC was
    /// checked: it is checked here, and the report carries no RSSI. It was refused as "not a
    /// Bluetooth link type".
    static func decodeLL(_ data: ArraySlice<UInt8>, timestamp: Double) -> LinkTypeDecoder.Outcome {
        if hasBadCRC(data) { return .notAdvertising }
        return report(pdu: data, rssi: nil, timestamp: timestamp)
    }

    /// True when `pdu` (from its access address) holds an advertising-channel packet whose CRC,
    /// present after the payload, does not match. A packet cut before its CRC is not judged here.
    static func hasBadCRC(_ pdu: ArraySlice<UInt8>) -> Bool {
        let s = pdu.startIndex
        guard pdu.count >= 6 else { return false }
        let end = s + 6 + Int(pdu[s + 5])
        guard end + 3 <= pdu.endIndex else { return false }
        return Array(pdu[end..<(end + 3)]) != crc(pdu[(s + 4)..<end])
    }

    /// The CRC of an advertising-channel PDU (header and payload) as its three bytes appear in a
    /// capture (Core 5.4 Vol 6 Part B 3.1.1): the 24-bit LFSR, polynomial 0x00065B, preset 0x555555,
    /// fed each byte least significant bit first; its bit 23 goes on air first, so each capture
    /// byte holds the register's bits in reverse.
    static func crc(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var register: UInt32 = 0x55_5555
        for byte in bytes {
            for bit in 0..<8 {
                let feedback = (UInt32(byte >> bit) ^ register >> 23) & 1
                register = (register << 1) & 0xFF_FFFF
                if feedback != 0 { register ^= 0x00_065B }
            }
        }
        return [UInt8(truncatingIfNeeded: register >> 16), UInt8(truncatingIfNeeded: register >> 8), UInt8(truncatingIfNeeded: register)]
            .map { $0.bitReversed }
    }

    /// LINKTYPE_NORDIC_BLE (272), nRF Sniffer protocol 2 and 3: board id, payload length (2),
    /// protocol version, packet counter (2), packet id, then a packet header (its own length first:
    /// 10) holding flags (bit 0: CRC OK), channel, RSSI magnitude (RSSI = -value), event counter and
    /// time; then the link-layer packet. Packet ids 0x02 (v3 advertising PDU) and 0x06 carry PDUs.
    static func decodeNordic(_ data: ArraySlice<UInt8>, timestamp: Double) -> LinkTypeDecoder.Outcome {
        let s = data.startIndex
        guard data.count >= 8 else { return .malformed("\(data.count) bytes, shorter than the nRF Sniffer header") }
        let version = data[s + 3]
        let packetID = data[s + 6]
        guard version >= 2 else { return .malformed("nRF Sniffer protocol version \(version) (1 is not read)") }
        guard packetID == 0x02 || packetID == 0x06 else { return .notAdvertising }
        let headerLength = Int(data[s + 7])
        guard headerLength >= 4, data.count >= 7 + headerLength else {
            return .malformed("nRF Sniffer packet header of \(headerLength) bytes runs past the \(data.count)-byte record")
        }
        guard data[s + 8] & 0x01 != 0 else { return .notAdvertising }
        // Flags bits 4-6: the PHY. As in link type 256, an LE Coded packet is no legacy advert, and
        // its coding-indicator byte would be read as the PDU header.
        guard UInt16((data[s + 8] >> 4) & 0x07) != codedPHY else { return .notAdvertising }
        let rssi = Int8(clamping: -Int(data[s + 10]))
        return report(pdu: data[(s + 7 + headerLength)...], rssi: rssi, timestamp: timestamp)
    }

    /// `pdu` starts at the access address. Returns the synthesized report event, or why not.
    static func report(pdu: ArraySlice<UInt8>, rssi: Int8?, timestamp: Double) -> LinkTypeDecoder.Outcome {
        let s = pdu.startIndex
        guard pdu.count >= 6 else { return .malformed("link-layer packet of \(pdu.count) bytes, shorter than access address and header") }
        let accessAddress = UInt32(pdu[s]) | UInt32(pdu[s + 1]) << 8 | UInt32(pdu[s + 2]) << 16 | UInt32(pdu[s + 3]) << 24
        guard accessAddress == advertisingAccessAddress else { return .notAdvertising }
        let header = pdu[s + 4]
        let length = Int(pdu[s + 5])
        let kind: AdvertisingEventKind
        switch header & 0x0F {
        case 0x0: kind = .advInd
        case 0x2: kind = .advNonconnInd
        case 0x4: kind = .scanRsp
        case 0x6: kind = .advScanInd
        default: return .notAdvertising
        }
        guard length >= 6, length <= 6 + 31 else {
            return .malformed("\(kind.name) payload length \(length) (a legacy advertising PDU holds 6 to 37 bytes)")
        }
        guard s + 6 + length <= pdu.endIndex else {
            return .malformed("\(kind.name) payload length \(length) runs past the \(pdu.count - 6) bytes after the header")
        }
        let advertisement = Advertisement(
            timestamp: timestamp,
            address: BDAddress(littleEndian: pdu[(s + 6)..<(s + 12)]),
            addressType: header & 0x40 != 0 ? .randomDevice : .publicDevice,
            eventKind: kind,
            rssi: rssi,
            data: pdu[(s + 12)..<(s + 6 + length)]
        )
        return .hci(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: timestamp))
    }
}

extension UInt8 {
    /// The bits in the opposite order: 0b0000_0001 becomes 0b1000_0000.
    var bitReversed: UInt8 {
        var value = self
        var reversed: UInt8 = 0
        for _ in 0..<8 {
            reversed = reversed << 1 | value & 1
            value >>= 1
        }
        return reversed
    }
}
