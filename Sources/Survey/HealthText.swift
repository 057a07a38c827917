/// Beacon health as short text for the terminal (the health view's columns, the detail pane's
/// lines): pure, units written out, `-` for unknown.
public enum HealthText {
    /// battery, temperature, TLM age, advertising count, uptime, interval, loss.
    public static func columns(_ health: BeaconHealth, at time: Double) -> [String] {
        var battery = "-", temperature = "-", age = "-", count = "-", uptime = "-"
        if let telemetry = health.telemetry {
            age = time.isFinite ? duration(max(0, time - telemetry.time)) : "-"
            switch telemetry.content {
            case .encrypted:
                battery = "eTLM"
            case .plain(let millivolts, let celsius, let advertised, let seconds):
                battery = millivolts.map(HealthFinding.volts) ?? "none"
                temperature = celsius.map { "\(rounded($0, 1)) C" } ?? "-"
                count = "\(advertised)"
                uptime = duration(seconds)
            }
        }
        let interval = health.interval.map { HealthFinding.duration($0.period) } ?? "-"
        let loss = health.interval.map { "\(Int(($0.lossFraction * 100).rounded()))%" } ?? "-"
        return [battery, temperature, age, count, uptime, interval, loss]
    }

    /// The detail pane's health line: `health 2.84 V, 19.0 C, TLM 3 s ago, 5223 sent, up 18 m;
    /// every 1.02 s, 12% lost` (the TLM part says `encrypted TLM` or `no TLM`).
    public static func summary(_ health: BeaconHealth, at time: Double) -> String {
        var parts: [String] = []
        if let telemetry = health.telemetry {
            let age = time.isFinite ? "TLM \(duration(max(0, time - telemetry.time))) ago" : "TLM"
            switch telemetry.content {
            case .encrypted:
                parts.append("encrypted \(age)")
            case .plain(let millivolts, let celsius, let advertised, let seconds):
                parts.append("battery " + (millivolts.map(HealthFinding.volts) ?? "none"))
                if let celsius { parts.append("\(rounded(celsius, 1)) C") }
                parts.append(age)
                parts.append("\(advertised) sent")
                parts.append("up \(duration(seconds))")
            }
        } else {
            parts.append("no TLM")
        }
        if let interval = health.interval {
            parts.append("every \(HealthFinding.duration(interval.period)), \(Int((interval.lossFraction * 100).rounded()))% lost")
        } else if health.intervalUndecided {
            parts.append("interval unclear: arrival times too irregular")
        } else {
            parts.append("interval not yet measured")
        }
        return "\(health.address): " + parts.joined(separator: ", ")
    }

    /// `850 ms`, `42 s`, `18 m`, `5 h`, `3 d`.
    public static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded(.down))) m" }
        if seconds < 172_800 { return "\(Int((seconds / 3600).rounded(.down))) h" }
        return "\(Int((seconds / 86400).rounded(.down))) d"
    }

    static func rounded(_ value: Double, _ decimals: Int) -> String {
        let scale = decimals == 1 ? 10.0 : 1.0
        let tenths = Int((value * scale).rounded())
        let sign = tenths < 0 ? "-" : ""
        return decimals == 1 ? "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)" : "\(tenths)"
    }
}
