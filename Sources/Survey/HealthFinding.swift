/// Something wrong with a beacon that a technician should act on, in words a row warning or an
/// event log line can show as they are.
public enum HealthFinding: Sendable, Equatable, CustomStringConvertible {
    /// The last plain TLM's battery is below the threshold (catalog `lowBatteryMillivolts`, else
    /// `HealthConfiguration.lowBatteryMillivolts`).
    case lowBattery(millivolts: Int, threshold: Int)
    /// The measured advertising interval is far from the catalog's `advertisingIntervalMs`.
    case intervalMismatch(measured: Double, expected: Double)
    /// The frame's 1 m power cannot be a received power (>= 0 dBm or below -127): ranging uses the
    /// default instead (the same rule as `ResolvedMeasuredPower`).
    case nonsenseMeasuredPower(frame: Int)
    /// The frame's 1 m power and the catalog's calibrated one differ by more than the tolerance:
    /// phones that range on the frame's value will be wrong by that much.
    case measuredPowerDiffers(frame: Int, calibrated: Double)
    /// The TLM uptime went backwards this many times: the beacon restarted (a weak battery browns
    /// out under the transmit pulse).
    case rebooted(times: Int)

    /// A short stable name for NDJSON and tests.
    public var kind: String {
        switch self {
        case .lowBattery: "low-battery"
        case .intervalMismatch: "interval"
        case .nonsenseMeasuredPower: "nonsense-measured-power"
        case .measuredPowerDiffers: "measured-power"
        case .rebooted: "rebooted"
        }
    }

    public var description: String {
        switch self {
        case .lowBattery(let millivolts, let threshold):
            "battery low: \(Self.volts(millivolts)), below \(Self.volts(threshold))"
        case .intervalMismatch(let measured, let expected):
            "advertises every \(Self.duration(measured)), catalog says \(Self.duration(expected))"
        case .nonsenseMeasuredPower(let frame):
            "frame says \(Self.signed(frame)) dBm at 1 m: not a received power, ranging uses the default"
        case .measuredPowerDiffers(let frame, let calibrated):
            "frame says \(Self.signed(frame)) dBm at 1 m, calibrated \(Self.signed(Int(calibrated.rounded()))) dBm"
        case .rebooted(let times):
            times == 1 ? "restarted once (TLM uptime went back)" : "restarted \(times) times (TLM uptime went back)"
        }
    }

    /// `2.51 V`.
    static func volts(_ millivolts: Int) -> String {
        let hundredths = (millivolts + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) V"
    }

    /// `100 ms` below a second, `1.02 s` from one.
    static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
}
