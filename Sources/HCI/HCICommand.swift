/// One HCI command packet: an opcode and its parameters (Core 5.4 Vol 4 Part E 5.4.1).
///
/// The opcode packs the command group (OGF, 6 bits) over the command within it (OCF, 10 bits).
/// Encoders for the commands beacontop sends live in extensions, one per spec section, so the
/// byte layout of each sits next to the section it follows.
public struct HCICommand: Sendable, Equatable {
    public var opcode: UInt16
    public var parameters: [UInt8]

    public init(opcode: UInt16, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    public init(ogf: UInt16, ocf: UInt16, parameters: [UInt8] = []) {
        self.init(opcode: ogf << 10 | ocf, parameters: parameters)
    }

    /// The packet after the H4 indicator: opcode (LE), parameter length, parameters.
    public var payload: [UInt8] {
        precondition(parameters.count <= 255, "HCI command parameters longer than 255 bytes")
        return [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }

    /// As the host sends it, ready for a capture writer or an H4 transport.
    public func packet(at time: Double) -> HCIPacket {
        HCIPacket(timestamp: time, direction: .hostToController, type: .command, payload: payload[...])
    }

    /// The command's name, for messages ("LE Set Scan Enable failed: ..."); hex for others.
    public var name: String { Self.name(ofOpcode: opcode) }

    public static func name(ofOpcode opcode: UInt16) -> String {
        if let known = HCIOpcode.names[opcode] { return known }
        let hex = String(opcode, radix: 16, uppercase: true)
        return "command 0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Opcodes of the commands beacontop sends (Core 5.4 Vol 4 Part E 7.3, 7.4, 7.8).
public enum HCIOpcode {
    public static let setEventMask: UInt16 = 0x0C01                  // 7.3.1
    public static let reset: UInt16 = 0x0C03                         // 7.3.2
    public static let readLocalVersionInformation: UInt16 = 0x1001   // 7.4.1
    public static let readLocalSupportedCommands: UInt16 = 0x1002    // 7.4.2
    public static let readLocalSupportedFeatures: UInt16 = 0x1003    // 7.4.3
    public static let readBDAddr: UInt16 = 0x1009                    // 7.4.6
    public static let leSetEventMask: UInt16 = 0x2001                // 7.8.1
    public static let leReadLocalSupportedFeatures: UInt16 = 0x2003  // 7.8.3
    public static let leSetRandomAddress: UInt16 = 0x2005            // 7.8.4
    public static let leSetAdvertisingParameters: UInt16 = 0x2006    // 7.8.5
    public static let leSetAdvertisingData: UInt16 = 0x2008          // 7.8.7
    public static let leSetScanResponseData: UInt16 = 0x2009         // 7.8.8
    public static let leSetAdvertisingEnable: UInt16 = 0x200A        // 7.8.9
    public static let leSetScanParameters: UInt16 = 0x200B           // 7.8.10
    public static let leSetScanEnable: UInt16 = 0x200C               // 7.8.11
    public static let leSetAdvertisingSetRandomAddress: UInt16 = 0x2035 // 7.8.52
    public static let leSetExtendedAdvertisingParameters: UInt16 = 0x2036 // 7.8.53
    public static let leSetExtendedAdvertisingData: UInt16 = 0x2037  // 7.8.54
    public static let leSetExtendedAdvertisingEnable: UInt16 = 0x2039 // 7.8.56
    public static let leRemoveAdvertisingSet: UInt16 = 0x203C        // 7.8.59
    public static let leSetExtendedScanParameters: UInt16 = 0x2041   // 7.8.64
    public static let leSetExtendedScanEnable: UInt16 = 0x2042       // 7.8.65

    static let names: [UInt16: String] = [
        setEventMask: "Set Event Mask",
        reset: "Reset",
        readLocalVersionInformation: "Read Local Version Information",
        readLocalSupportedCommands: "Read Local Supported Commands",
        readLocalSupportedFeatures: "Read Local Supported Features",
        readBDAddr: "Read BD_ADDR",
        leSetEventMask: "LE Set Event Mask",
        leReadLocalSupportedFeatures: "LE Read Local Supported Features",
        leSetRandomAddress: "LE Set Random Address",
        leSetAdvertisingParameters: "LE Set Advertising Parameters",
        leSetAdvertisingData: "LE Set Advertising Data",
        leSetScanResponseData: "LE Set Scan Response Data",
        leSetAdvertisingEnable: "LE Set Advertising Enable",
        leSetScanParameters: "LE Set Scan Parameters",
        leSetScanEnable: "LE Set Scan Enable",
        leSetAdvertisingSetRandomAddress: "LE Set Advertising Set Random Address",
        leSetExtendedAdvertisingParameters: "LE Set Extended Advertising Parameters",
        leSetExtendedAdvertisingData: "LE Set Extended Advertising Data",
        leSetExtendedAdvertisingEnable: "LE Set Extended Advertising Enable",
        leRemoveAdvertisingSet: "LE Remove Advertising Set",
        leSetExtendedScanParameters: "LE Set Extended Scan Parameters",
        leSetExtendedScanEnable: "LE Set Extended Scan Enable",
    ]
}

extension HCICommand {
    /// Reset (7.3.2): puts the controller in a known state (not scanning, not advertising).
    public static let reset = HCICommand(opcode: HCIOpcode.reset)

    /// Set Event Mask (7.3.1). The default mask leaves LE Meta events (bit 61) off on some
    /// controllers, and every advertising report is an LE Meta event, so beacontop sets it.
    public static func setEventMask(_ mask: UInt64) -> HCICommand {
        HCICommand(opcode: HCIOpcode.setEventMask, parameters: littleEndian(mask, bytes: 8))
    }

    /// The spec's default mask (0x00001FFFFFFFFFFF) plus LE Meta Event (bit 61).
    public static let eventMaskWithLEMeta: UInt64 = 0x0000_1FFF_FFFF_FFFF | (1 << 61)

    /// Read Local Version Information (7.4.1): mandatory, changes nothing; a live source sends it to
    /// learn that a late answer is not coming (`CommandFlow`).
    public static let readLocalVersionInformation = HCICommand(opcode: HCIOpcode.readLocalVersionInformation)

    /// Read Local Supported Commands (7.4.2): 64 octets, one bit per command (Part E 6.27).
    public static let readLocalSupportedCommands = HCICommand(opcode: HCIOpcode.readLocalSupportedCommands)

    /// Read Local Supported Features (7.4.3): the LMP feature bits (Vol 2 Part C 3.3), bit 38 = LE supported.
    public static let readLocalSupportedFeatures = HCICommand(opcode: HCIOpcode.readLocalSupportedFeatures)

    /// LE Read Local Supported Features (7.8.3): the link layer feature bits (Vol 6 Part B 4.6).
    public static let leReadLocalSupportedFeatures = HCICommand(opcode: HCIOpcode.leReadLocalSupportedFeatures)

    /// LE Set Event Mask (7.8.1). Bit 1 is LE Advertising Report, bit 12 LE Extended Advertising
    /// Report, bit 17 Advertising Set Terminated; the default (0x1F) lacks the extended ones.
    public static func leSetEventMask(_ mask: UInt64) -> HCICommand {
        HCICommand(opcode: HCIOpcode.leSetEventMask, parameters: littleEndian(mask, bytes: 8))
    }

    /// Every LE event up to Scan Request Received (bits 0-18): what a scanner or advertiser may see.
    public static let leEventMaskForScanning: UInt64 = 0x7_FFFF

    static func littleEndian<T: FixedWidthInteger>(_ value: T, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
