/// The Android Beacon Library's `ArmaRssiFilter`: `x(t) = x(t-1) - c * (x(t-1) - rssi)`, c = 0.1,
/// seeded with the first sample.
///
/// Faithful to the library's quirk by default: it stores the result through `intValue()`, which
/// truncates toward zero. For negative dBm this rounds *up*, so a louder sample always moves the
/// estimate by at least 1 dB while a quieter one moves it only when it is 10 dB below: the filter
/// settles several dB above the mean RSSI (distances come out short). `truncatesToInteger: false`
/// gives the textbook exponential moving average for comparison.
public struct ARMARSSIFilter: RSSIFilter {
    public let coefficient: Double
    public let truncatesToInteger: Bool
    private var value: Double?

    public init(coefficient: Double = 0.1, truncatesToInteger: Bool = true) {
        self.coefficient = coefficient
        self.truncatesToInteger = truncatesToInteger
    }

    public var estimateVariance: Double? { nil }

    public mutating func add(_ rssi: Double, at time: Double) {
        let previous = value ?? rssi
        let next = previous - coefficient * (previous - rssi)
        value = truncatesToInteger ? next.rounded(.towardZero) : next
    }

    public mutating func estimate(at time: Double) -> Double? { value }

    public mutating func reset() { value = nil }
}
