import BeaconFormats

/// The last Eddystone-TLM a transmitter sent, kept with when it was heard.
///
/// Units as the Eddystone TLM specification (github.com/google/eddystone, eddystone-tlm) defines
/// them; a battery voltage of 0 means "not supported" (a mains- or USB-powered beacon), so it is
/// kept as nil and never reads as a flat battery.
public struct Telemetry: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case plain(batteryMillivolts: Int?, temperatureCelsius: Double?, advertisingCount: UInt32, uptimeSeconds: Double)
        /// eTLM: present, but only the beacon's owner holds the key.
        case encrypted
    }

    public var content: Content
    /// When the TLM frame was heard (capture time).
    public var time: Double

    public init(content: Content, time: Double) {
        self.content = content
        self.time = time
    }

    /// The telemetry in a TLM frame heard at `time`.
    public init(_ frame: EddystoneTLMFrame, time: Double) {
        switch frame.payload {
        case .plain(let millivolts, let temperature, let count, let tenths):
            content = .plain(
                batteryMillivolts: millivolts == 0 ? nil : Int(millivolts), temperatureCelsius: temperature,
                advertisingCount: count, uptimeSeconds: Double(tenths) / 10
            )
        case .encrypted:
            content = .encrypted
        }
        self.time = time
    }

    public var isEncrypted: Bool { content == .encrypted }

    public var batteryMillivolts: Int? {
        if case .plain(let millivolts, _, _, _) = content { return millivolts }
        return nil
    }

    public var uptimeSeconds: Double? {
        if case .plain(_, _, _, let uptime) = content { return uptime }
        return nil
    }
}
