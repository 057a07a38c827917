/// An HCI status (error) code, with the words a person can act on (Core 5.4 Vol 1 Part F 1.3,
/// "List of error codes"). Unknown codes keep their number.
public struct HCIStatusCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HCIStatusCode(rawValue: 0x00)
    public static let unknownCommand = HCIStatusCode(rawValue: 0x01)
    public static let hardwareFailure = HCIStatusCode(rawValue: 0x03)
    public static let memoryCapacityExceeded = HCIStatusCode(rawValue: 0x07)
    public static let commandDisallowed = HCIStatusCode(rawValue: 0x0C)
    public static let unsupportedFeature = HCIStatusCode(rawValue: 0x11)
    public static let invalidParameters = HCIStatusCode(rawValue: 0x12)
    public static let controllerBusy = HCIStatusCode(rawValue: 0x3A)
    public static let unknownAdvertisingIdentifier = HCIStatusCode(rawValue: 0x41)
    public static let limitReached = HCIStatusCode(rawValue: 0x42)

    /// The name the Core specification gives the code.
    public var name: String {
        Self.names[rawValue] ?? "Unknown status 0x" + String(rawValue, radix: 16, uppercase: true)
    }

    /// "Command Disallowed (0x0C)".
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "\(name) (0x\(hex.count == 1 ? "0" + hex : hex))"
    }

    static let names: [UInt8: String] = [
        0x00: "Success",
        0x01: "Unknown HCI Command",
        0x02: "Unknown Connection Identifier",
        0x03: "Hardware Failure",
        0x04: "Page Timeout",
        0x05: "Authentication Failure",
        0x06: "PIN or Key Missing",
        0x07: "Memory Capacity Exceeded",
        0x08: "Connection Timeout",
        0x09: "Connection Limit Exceeded",
        0x0A: "Synchronous Connection Limit To A Device Exceeded",
        0x0B: "Connection Already Exists",
        0x0C: "Command Disallowed",
        0x0D: "Connection Rejected due to Limited Resources",
        0x0E: "Connection Rejected Due To Security Reasons",
        0x0F: "Connection Rejected due to Unacceptable BD_ADDR",
        0x10: "Connection Accept Timeout Exceeded",
        0x11: "Unsupported Feature or Parameter Value",
        0x12: "Invalid HCI Command Parameters",
        0x13: "Remote User Terminated Connection",
        0x14: "Remote Device Terminated Connection due to Low Resources",
        0x15: "Remote Device Terminated Connection due to Power Off",
        0x16: "Connection Terminated By Local Host",
        0x1A: "Unsupported Remote Feature",
        0x1F: "Unspecified Error",
        0x20: "Unsupported LMP Parameter Value",
        0x22: "LMP Response Timeout",
        0x25: "Encryption Mode Not Acceptable",
        0x3A: "Controller Busy",
        0x3C: "Advertising Timeout",
        0x3E: "Connection Failed to be Established",
        0x41: "Unknown Advertising Identifier",
        0x42: "Limit Reached",
        0x43: "Operation Cancelled by Host",
        0x45: "Packet Too Long",
    ]

    /// What the code most likely means for the command that got it, and what to do about it.
    /// The Core specification gives the code; the hint comes from how controllers use it.
    public func explanation(for opcode: UInt16) -> String {
        switch (self, opcode) {
        case (.commandDisallowed, HCIOpcode.leSetScanEnable), (.commandDisallowed, HCIOpcode.leSetExtendedScanEnable),
             (.commandDisallowed, HCIOpcode.leSetScanParameters), (.commandDisallowed, HCIOpcode.leSetExtendedScanParameters):
            // Not 'hci0:monitor': the same words reach a user of hci1 or of a tcp: controller.
            "the controller is already scanning (bluetoothd or another program); stop it, or on a kernel adapter listen alongside with its monitor channel (hciN:monitor)"
        case (.commandDisallowed, HCIOpcode.leSetAdvertisingEnable), (.commandDisallowed, HCIOpcode.leSetExtendedAdvertisingEnable),
             (.commandDisallowed, HCIOpcode.leSetAdvertisingParameters), (.commandDisallowed, HCIOpcode.leSetExtendedAdvertisingParameters):
            "the adapter is already advertising or has that advertising set in use"
        case (.commandDisallowed, _):
            "the controller refuses this command in its current state"
        case (.unknownCommand, _):
            "the controller does not implement this command"
        case (.unsupportedFeature, _), (.invalidParameters, _):
            "the controller rejects the parameters (check --interval and --window)"
        case (.controllerBusy, _):
            "the controller is busy; try again"
        case (.limitReached, _), (.memoryCapacityExceeded, _):
            "the controller has no room for another advertising set"
        case (.hardwareFailure, _):
            "the controller reports a hardware failure; unplug and replug the adapter"
        default:
            "the controller refused the command"
        }
    }
}
