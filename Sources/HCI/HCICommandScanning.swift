/// Passive scanning only listens; active scanning also sends SCAN_REQ and so receives scan
/// responses (where Govee/Telink thermometers put their iBeacon). Core 5.4 Vol 4 Part E 7.8.10.
public enum LEScanType: UInt8, Sendable {
    case passive = 0x00
    case active = 0x01
}

/// Scan timing in the controller's unit of 0.625 ms (Core 5.4 Vol 4 Part E 7.8.10, 7.8.64).
public struct LEScanTiming: Sendable, Equatable {
    /// How often a scan starts, in 0.625 ms units.
    public var interval: UInt16
    /// How long each scan listens, in 0.625 ms units; never longer than `interval`.
    public var window: UInt16

    public init(interval: UInt16, window: UInt16) {
        self.interval = interval
        self.window = window
    }

    /// Listens all the time (window = interval = 100 ms), so no beacon packet is missed.
    public static let continuous = LEScanTiming(interval: 0xA0, window: 0xA0)

    /// Builds a timing from milliseconds, checking the spec's ranges (2.5 ms to 10.24 s for the
    /// legacy command) so the error names the option instead of a controller status.
    public init(intervalMilliseconds: Double, windowMilliseconds: Double) throws(DecodeError) {
        func units(_ ms: Double, _ field: String) throws(DecodeError) -> UInt16 {
            let value = (ms / 0.625).rounded()
            guard value >= 4, value <= 0x4000 else {
                throw DecodeError(field: field, offset: 0, reason: "\(ms) ms is outside 2.5 ms to 10240 ms")
            }
            return UInt16(value)
        }
        let interval = try units(intervalMilliseconds, "scan interval")
        let window = try units(windowMilliseconds, "scan window")
        guard window <= interval else {
            throw DecodeError(field: "scan window", offset: 0, reason: "\(windowMilliseconds) ms is longer than the interval \(intervalMilliseconds) ms")
        }
        self.init(interval: interval, window: window)
    }
}

extension HCICommand {
    /// LE Set Scan Parameters (7.8.10): type, interval, window, own address type, filter policy.
    /// Own address public (0x00); filter policy 0x00 accepts every advertiser.
    public static func leSetScanParameters(type: LEScanType, timing: LEScanTiming) -> HCICommand {
        var parameters: [UInt8] = [type.rawValue]
        parameters += littleEndian(timing.interval, bytes: 2)
        parameters += littleEndian(timing.window, bytes: 2)
        parameters += [0x00, 0x00]
        return HCICommand(opcode: HCIOpcode.leSetScanParameters, parameters: parameters)
    }

    /// LE Set Scan Enable (7.8.11). Beacon ranging needs every packet's RSSI, so callers pass
    /// `filterDuplicates: false`: with filtering on, a controller reports each advertiser once.
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool) -> HCICommand {
        HCICommand(opcode: HCIOpcode.leSetScanEnable, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    /// LE Set Extended Scan Parameters (7.8.64) on the LE 1M PHY only (Scanning_PHYs bit 0):
    /// beacons advertise on 1M, and one PHY keeps the full window on it.
    public static func leSetExtendedScanParameters(type: LEScanType, timing: LEScanTiming) -> HCICommand {
        var parameters: [UInt8] = [0x00, 0x00, 0x01, type.rawValue]
        parameters += littleEndian(timing.interval, bytes: 2)
        parameters += littleEndian(timing.window, bytes: 2)
        return HCICommand(opcode: HCIOpcode.leSetExtendedScanParameters, parameters: parameters)
    }

    /// LE Set Extended Scan Enable (7.8.65) with Duration and Period 0: scan until disabled.
    public static func leSetExtendedScanEnable(_ enable: Bool, filterDuplicates: Bool) -> HCICommand {
        HCICommand(
            opcode: HCIOpcode.leSetExtendedScanEnable,
            parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0, 0, 0, 0, 0]
        )
    }
}
