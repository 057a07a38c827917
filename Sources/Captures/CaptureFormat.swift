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

    /// What a compressed file or an archive is, from its first bytes, and how to get the capture
    /// out of it; nil for anything else. Captures are often kept and sent compressed (Wireshark
    /// reads `.pcapng.gz` as it is, an Android bug report is a zip): said in words, they were
    /// `not a btsnoop, pcap or pcapng file (first bytes 1f8b0808...)`.
    static func packing(of head: [UInt8], path: String) -> String? {
        func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
        if starts([0x1F, 0x8B]) { return "a gzip-compressed file: decompress it first (gunzip -k \(path))" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "an xz-compressed file: decompress it first (unxz -k \(path))" }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return "a zstd-compressed file: decompress it first (unzstd \(path))" }
        if starts([0x42, 0x5A, 0x68]) { return "a bzip2-compressed file: decompress it first (bunzip2 -k \(path))" }
        if starts([0x50, 0x4B, 0x03, 0x04]) {
            return "a zip archive: take the capture out of it first (an Android bug report holds its HCI log at "
                + "FS/data/misc/bluetooth/logs/btsnoop_hci.log: unzip \(path) FS/data/misc/bluetooth/logs/btsnoop_hci.log)"
        }
        return nil
    }

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
    /// Link-layer packets from the access address to the CRC, nothing else (Kismet and other sniffers).
    public static let bluetoothLELL: UInt32 = 251
    /// Link-layer packets with a 10-byte pseudo-header (channel, signal power, flags).
    public static let bluetoothLELLWithPseudoHeader: UInt32 = 256
    /// Nordic nRF Sniffer for Bluetooth LE: board id and sniffer header, then the link-layer packet.
    public static let nordicBLE: UInt32 = 272

    /// Bluetooth link types that hold no LE advertising, by what they hold.
    static let unreadBluetooth: [UInt32: String] = [255: "Bluetooth BR/EDR baseband"]

    public static let supported: Set<UInt32> = [
        bluetoothHCIH4, bluetoothHCIH4WithPseudoHeader, bluetoothLinuxMonitor, bluetoothLELL, bluetoothLELLWithPseudoHeader, nordicBLE,
    ]
}
