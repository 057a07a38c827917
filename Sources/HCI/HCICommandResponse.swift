/// The controller's answer to a command: Command Complete (Core 5.4 Vol 4 Part E 7.7.14) or
/// Command Status (7.7.15). Every command gets exactly one of them; the scan and advertise
/// procedures check each one and turn a failure into words.
public struct HCICommandResponse: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Command Complete: the command ran; its return parameters follow the status.
        case complete
        /// Command Status: the command was accepted (or refused) and will finish later.
        case status
    }

    public var kind: Kind
    public var opcode: UInt16
    /// Num_HCI_Command_Packets: how many commands the controller accepts now.
    public var allowedCommandPackets: UInt8
    /// Nil only for a Command Complete with no return parameters (opcode 0x0000, a "no-op"
    /// the controller sends to grant command credits).
    public var status: HCIStatusCode?
    /// Return parameters after the status byte (Command Complete only).
    public var returnParameters: [UInt8]

    public init(kind: Kind, opcode: UInt16, allowedCommandPackets: UInt8, status: HCIStatusCode?, returnParameters: [UInt8] = []) {
        self.kind = kind
        self.opcode = opcode
        self.allowedCommandPackets = allowedCommandPackets
        self.status = status
        self.returnParameters = returnParameters
    }

    /// Decodes an event payload (event code first, no H4 indicator). Returns nil for any event
    /// other than Command Complete (0x0E) or Command Status (0x0F); throws when one of those is
    /// too short for its fixed fields, naming the field and byte offset.
    public init?(eventPayload p: ArraySlice<UInt8>) throws(DecodeError) {
        let s = p.startIndex
        guard p.count >= 2, p[s] == 0x0E || p[s] == 0x0F else { return nil }
        let declared = Int(p[s + 1])
        guard declared + 2 <= p.count else {
            throw DecodeError(field: "parameter length", offset: 1, reason: "says \(declared) bytes, \(p.count - 2) present")
        }
        if p[s] == 0x0E {
            guard declared >= 3 else {
                throw DecodeError(field: "Command_Opcode", offset: 3, reason: "Command Complete has \(declared) parameter bytes, needs at least 3")
            }
            let opcode = UInt16(p[s + 3]) | UInt16(p[s + 4]) << 8
            let status = declared >= 4 ? HCIStatusCode(rawValue: p[s + 5]) : nil
            let rest = declared > 4 ? Array(p[(s + 6)..<(s + 2 + declared)]) : []
            self.init(kind: .complete, opcode: opcode, allowedCommandPackets: p[s + 2], status: status, returnParameters: rest)
        } else {
            guard declared >= 4 else {
                throw DecodeError(field: "Command_Opcode", offset: 4, reason: "Command Status has \(declared) parameter bytes, needs 4")
            }
            let opcode = UInt16(p[s + 4]) | UInt16(p[s + 5]) << 8
            self.init(kind: .status, opcode: opcode, allowedCommandPackets: p[s + 3], status: HCIStatusCode(rawValue: p[s + 2]))
        }
    }

    /// True when the command succeeded (or, for Command Status, was accepted).
    public var succeeded: Bool { status == nil || status == .success }
}

/// The 64-octet bit mask of Read Local Supported Commands (Core 5.4 Vol 4 Part E 6.27).
public struct HCISupportedCommands: Sendable, Equatable {
    public var octets: [UInt8]

    public init(octets: [UInt8]) { self.octets = octets }

    /// Reads the return parameters of Read Local Supported Commands (after the status byte).
    public init(returnParameters: [UInt8]) throws(DecodeError) {
        guard returnParameters.count >= 64 else {
            throw DecodeError(field: "Supported_Commands", offset: 6, reason: "\(returnParameters.count) of 64 octets present")
        }
        octets = Array(returnParameters.prefix(64))
    }

    public func supports(octet: Int, bit: Int) -> Bool {
        octet < octets.count && octets[octet] & (1 << bit) != 0
    }

    /// LE Set Extended Scan Parameters (octet 37 bit 5) and Enable (octet 37 bit 6).
    public var extendedScanning: Bool { supports(octet: 37, bit: 5) && supports(octet: 37, bit: 6) }

    /// LE Set Extended Advertising Parameters, Data and Enable (octet 36 bits 2, 3, 5; bit 1 is
    /// LE Set Advertising Set Random Address).
    public var extendedAdvertising: Bool {
        supports(octet: 36, bit: 2) && supports(octet: 36, bit: 3) && supports(octet: 36, bit: 5)
    }
}

/// LE link layer feature bits (Core 5.4 Vol 6 Part B 4.6), from LE Read Local Supported Features.
public struct LEFeatures: Sendable, Equatable {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public init(returnParameters: [UInt8]) throws(DecodeError) {
        guard returnParameters.count >= 8 else {
            throw DecodeError(field: "LE_Features", offset: 6, reason: "\(returnParameters.count) of 8 octets present")
        }
        rawValue = returnParameters.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// Bit 12: LE Extended Advertising (which also covers extended scanning).
    public var extendedAdvertising: Bool { rawValue & (1 << 12) != 0 }
}
