/// Smooths one beacon's RSSI samples. Every filter takes time as an argument (capture time in
/// seconds), so replays and tests are deterministic; none reads a clock.
///
/// Filters are values owned by one beacon's track; the engine calls `add` for each sighting and
/// `estimate` once per tick.
public protocol RSSIFilter: Sendable {
    /// Feeds one received sample (dBm) heard at `time`.
    mutating func add(_ rssi: Double, at time: Double)
    /// The smoothed RSSI (dBm) as of `time`, or nil when the filter holds no usable sample
    /// (window filters forget samples older than their window).
    mutating func estimate(at time: Double) -> Double?
    /// The variance (dB²) of the estimate when the filter models it (Kalman filters, or the
    /// spread of a window divided by its size); nil when it does not.
    var estimateVariance: Double? { get }
    /// Forgets every sample, as after a long silence.
    mutating func reset()
}

/// The filters beacontop offers, selectable by name (`--filter NAME`).
public enum RSSIFilterKind: String, Sendable, CaseIterable, Codable {
    /// beacontop's default: an adaptive Kalman filter with change detection (`AdaptiveKalmanRSSIFilter`).
    case adaptive
    /// Android Beacon Library `RunningAverageRssiFilter`: 20 s window, trimmed mean.
    case runningAverage = "running-average"
    /// Android Beacon Library `ArmaRssiFilter`, c = 0.1.
    case arma
    /// kalmanjs (Wouter Bulten) on RSSI with process noise R = 0.008 and measurement noise Q = 4,
    /// the values of issue 9's "room-assistant" column. room-assistant itself uses R = 0.8, Q = 15
    /// on RSSI (2.x) or R = 0.01, Q = 3 on distance (1.x): `RangingEvaluation.FieldPipeline`.
    case kalman
    /// ESPresense-style interquartile mean over 15 s.
    case iqm

    /// A fresh filter of this kind with its documented defaults.
    public func makeFilter() -> any RSSIFilter {
        switch self {
        case .adaptive: AdaptiveKalmanRSSIFilter()
        case .runningAverage: RunningAverageRSSIFilter()
        case .arma: ARMARSSIFilter()
        case .kalman: BultenKalmanRSSIFilter()
        case .iqm: InterquartileMeanRSSIFilter()
        }
    }

    /// Parses a name as given on the command line; the error lists the valid names.
    public init(name: String) throws(RangingConfigurationError) {
        guard let kind = RSSIFilterKind(rawValue: name.lowercased()) else {
            throw RangingConfigurationError(
                field: "filter",
                reason: "unknown filter \"\(name)\"; expected one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        self = kind
    }
}

/// A configuration value that makes no sense, naming the field.
public struct RangingConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
