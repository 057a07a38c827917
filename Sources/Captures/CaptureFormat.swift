/// The container formats `CaptureReader` recognises from a file's first bytes.
public enum CaptureFormat: Sendable, Equatable, CustomStringConvertible {
    /// btsnoop version 1 (RFC 1761 style, as Android and `btmon -w` write it): big-endian, with a
    /// datalink type: 1001 unframed HCI (H1), 1002 HCI UART (H4), 2001 Linux monitor.
    case btsnoop(datalink: UInt32)
    /// Classic libpcap: one link type for the whole file; either byte order; micro- or nanosecond times.
    case pcap(linkType: UInt32, bigEndian: Bool, nanoseconds: Bool)
    /// pcapng: sections of blocks, one link type and timestamp resolution per interface.
    case pcapng

    static let btsnoopMagic: [UInt8] = Array("btsnoop\0".utf8)

    public var description: String {
        switch self {
        case .btsnoop(let datalink): "btsnoop (datalink \(datalink))"
        case .pcap(let linkType, _, let nanoseconds): "pcap (link type \(linkType)\(nanoseconds ? ", nanoseconds" : ""))"
        case .pcapng: "pcapng"
        }
    }
}

/// Link-layer header types (tcpdump.org "LINK-LAYER HEADER TYPES") that carry Bluetooth packets.
public enum LinkType {
    /// H4 without a pseudo-header: the direction is inferred from the packet type.
    public static let bluetoothHCIH4: UInt32 = 187
    /// A 4-byte big-endian direction (bit 0: 1 = received by the host), then H4.
    public static let bluetoothHCIH4WithPseudoHeader: UInt32 = 201
    /// BlueZ monitor: adapter index and opcode (both 16-bit big-endian), then the HCI packet.
    public static let bluetoothLinuxMonitor: UInt32 = 254
    /// Link-layer packets with a 10-byte pseudo-header (channel, signal power, flags).
    public static let bluetoothLELLWithPseudoHeader: UInt32 = 256
    /// Nordic nRF Sniffer for Bluetooth LE: board id and sniffer header, then the link-layer packet.
    public static let nordicBLE: UInt32 = 272

    public static let supported: Set<UInt32> = [
        bluetoothHCIH4, bluetoothHCIH4WithPseudoHeader, bluetoothLinuxMonitor, bluetoothLELLWithPseudoHeader, nordicBLE,
    ]
}
