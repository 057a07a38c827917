/// Short fixed-width number formats for table cells. Hand-written rather than `String(format:)`,
/// which goes through Foundation and costs microseconds per call: a 500-row frame formats thousands.
enum CellFormat {
    /// `value` with `decimals` digits after the point, rounded half away from zero (`-59.3`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "?" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return value < 0 ? "-huge" : "huge" }
        let whole = Int(scaled) / Int(scale)
        let fraction = Int(scaled) % Int(scale)
        var text = (value < 0 && scaled != 0) ? "-" : ""
        text += String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// A distance in metres with about three significant digits: `0.82`, `12.3`, `153`.
    static func metres(_ value: Double) -> String {
        if value < 10 { return fixed(value, decimals: 2) }
        if value < 100 { return fixed(value, decimals: 1) }
        return fixed(value, decimals: 0)
    }

    /// A range of distances, compact: `0.5-1.2`, `12-25`.
    static func range(_ range: ClosedRange<Double>) -> String {
        func short(_ v: Double) -> String { v < 10 ? fixed(v, decimals: 1) : fixed(v, decimals: 0) }
        return "\(short(range.lowerBound))-\(short(range.upperBound))"
    }

    /// Time since last seen: `0.3s`, `12s`, `4m`, `2h`.
    static func age(_ seconds: Double) -> String {
        guard !seconds.isNaN else { return "?" }
        if seconds < 10 { return fixed(max(0, seconds), decimals: 1) + "s" }
        if seconds < 60 { return fixed(seconds, decimals: 0) + "s" }
        if seconds < 3600 { return String(Int(seconds / 60)) + "m" }
        if seconds < 100 * 3600 { return String(Int(seconds / 3600)) + "h" }
        return seconds < 1e7 * 86400 ? String(Int(seconds / 86400)) + "d" : "long"
    }

    /// A scanner's clock offset in the 8 cells of its column: `-0.42`, `+12.30` within 100 s; past
    /// that in the units of an age (`+4h`, `+2121d`): an agent replaying an old capture stamps its
    /// readings with capture time, years away from the view's clock.
    static func offset(_ seconds: Double) -> String {
        guard !seconds.isNaN else { return "?" }
        let sign = seconds < 0 ? "-" : "+"
        if seconds.magnitude < 100 { return sign + fixed(seconds.magnitude, decimals: 2) }
        return sign + age(seconds.magnitude)
    }

    /// Longest replay position or length the clock spells out: the span `TimestampPolicy` allows.
    static let longestClock = 100_000.0 * 86_400

    /// A replay clock: `01:23`, `1:02:03`, past 100 hours `12d 03:04:05`; `--:--` for a time that
    /// is no position (NaN, or past `longestClock`, which only a forged capture reaches).
    static func clock(_ seconds: Double) -> String {
        guard !seconds.isNaN, seconds < longestClock else { return "--:--" }
        let total = Int(max(0, seconds))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        if total >= 100 * 3600 { return "\(total / 86400)d \(two(total / 3600 % 24)):\(two(total / 60 % 60)):\(two(total % 60))" }
        if total >= 3600 { return "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" }
        return "\(two(total / 60)):\(two(total % 60))"
    }

    /// Bytes as spaced lower-case hex (`02 01 06`).
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        for byte in bytes {
            if !utf8.isEmpty { utf8.append(0x20) }
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
