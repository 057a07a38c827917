/// Where the 1 m reference power used for a beacon came from.
public enum MeasuredPowerSource: String, Sendable, Equatable {
    /// The frame's own measured power (iBeacon), reference RSSI (AltBeacon) or TX power - 41 (Eddystone).
    case frame
    /// The exhibit catalog's `measuredPower` override.
    case catalog
    /// The frame's value was nonsense (>= 0 dBm, or below -127): the default was used instead.
    case defaultForNonsense = "default-nonsense"
    /// The frame carried none (Eddystone-TLM): the default was used.
    case defaultForMissing = "default-missing"
}

/// The measured power the distance model uses, and why.
///
/// Real frames carry +3 and +12 dBm (Govee thermometers): read literally, a beacon heard at -80 dBm
/// would be thousands of metres away. A received power at 1 m is always negative for BLE (the
/// strongest transmitters send +20 dBm and lose about 41 dB in the first metre), so a value >= 0 dBm
/// is taken as unset: beacontop uses `RangingConfiguration.defaultMeasuredPower` (-59 dBm, the
/// usual iBeacon calibration) and flags it (`measuredPowerSource: "default-nonsense"` in NDJSON).
public struct ResolvedMeasuredPower: Sendable, Equatable {
    public var dBm: Double
    public var source: MeasuredPowerSource
    /// The frame's value when it was overridden or rejected, for display.
    public var frameValue: Int?

    public init(dBm: Double, source: MeasuredPowerSource, frameValue: Int?) {
        self.dBm = dBm
        self.source = source
        self.frameValue = frameValue
    }

    /// Precedence: catalog override, then a plausible frame value (-127...-1 dBm), then the default.
    public static func resolve(frame: Int?, override: Double?, defaultPower: Double) -> ResolvedMeasuredPower {
        if let override { return ResolvedMeasuredPower(dBm: override, source: .catalog, frameValue: frame) }
        guard let frame else { return ResolvedMeasuredPower(dBm: defaultPower, source: .defaultForMissing, frameValue: nil) }
        if isPlausible(frame) { return ResolvedMeasuredPower(dBm: Double(frame), source: .frame, frameValue: frame) }
        return ResolvedMeasuredPower(dBm: defaultPower, source: .defaultForNonsense, frameValue: frame)
    }

    public static func isPlausible(_ dBm: Int) -> Bool { dBm < 0 && dBm >= -127 }
}
