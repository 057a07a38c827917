import Foundation
import Ranging

/// The distance pipelines of the field, re-implemented from their sources with their published
/// defaults, each with its own distance model. Filters are the ones in `Ranging` (checked against
/// their originals: `ReferenceFilterTests`), configured as each project configures them.
///
/// - Android Beacon Library: `RunningAverageRssiFilter` (20 s) or `ArmaRssiFilter` (c = 0.1, stored
///   through `intValue()`), then `CurveFittedDistanceCalculator` with the library's default device
///   model (Nexus 5: 0.42093, 6.9476, 0.54992).
/// - room-assistant 2.x: kalmanjs on RSSI with `R = 0.8, Q = 15` (`KalmanFilterable(Object, 0.8,
///   15)` in its BLE service), then the Radius curve (0.89976, 7.7095, 0.111) rounded to 0.1 m
///   (`_.round(d, 1)` in its `Tag`). room-assistant 1.x filtered the *distance* instead: the
///   unrounded curve through kalmanjs with `R = 0.01, Q = 3` (its `config/default.json`).
/// - ESPresense, as the issue states it: the interquartile mean of the last 15 s, then
///   log-distance with n = 2.7 (its `absorption` default).
/// - Home Assistant's iBeacon integration: the last packet's RSSI through bluetooth-data-tools'
///   curve (the Radius coefficients), rounded to whole metres (Python's `round`, half to even).
/// - Raw log-distance: the last packet, n = 2.
///
/// The issue's table reproduces exactly with two variants, kept as their own rows: Android's ARMA
/// without the `intValue()` truncation (`androidARMAUntruncated`), and kalmanjs on RSSI with
/// `R = 0.008, Q = 4` before the rounded Radius curve (`roomAssistantIssue`).
public struct FieldPipeline: RangingPipeline {
    public enum Kind: String, CaseIterable, Sendable {
        case androidRunningAverage = "android-ra"
        case androidARMA = "android-arma"
        case androidARMAUntruncated = "android-arma-ema"
        case roomAssistant = "room-assistant"
        case roomAssistantIssue = "room-assistant-issue"
        case roomAssistantDistance = "room-assistant-1"
        case espresense = "espresense"
        case homeAssistant = "home-assistant"
        case rawLogDistance = "raw-log"

        /// The column heading in the evaluation's tables.
        public var title: String {
            switch self {
            case .androidRunningAverage: "Android RA 20 s + curve"
            case .androidARMA: "Android ARMA + curve"
            case .androidARMAUntruncated: "Android ARMA (no intValue) + curve"
            case .roomAssistant: "room-assistant 2 Kalman + curve"
            case .roomAssistantIssue: "room-assistant (issue: R 0.008, Q 4)"
            case .roomAssistantDistance: "room-assistant 1 Kalman on distance"
            case .espresense: "ESPresense IQR 15 s, n 2.7"
            case .homeAssistant: "Home Assistant raw curve, m"
            case .rawLogDistance: "raw log-distance n 2"
            }
        }

        /// The issue's four pipelines (with their variants): beacontop's distance target is the best
        /// of these on each run. Home Assistant and raw log-distance are shown, not targets.
        public var isTarget: Bool {
            switch self {
            case .homeAssistant, .rawLogDistance: false
            default: true
            }
        }
    }

    public let kind: Kind
    private let measuredPower: Double
    private var filter: (any RSSIFilter)?
    private var distanceFilter: BultenKalmanRSSIFilter?
    private var last: Double?

    /// - Parameter measuredPower: the technician's 1 m calibration (dBm), as every pipeline gets it.
    public init(_ kind: Kind, measuredPower: Double) {
        self.kind = kind
        self.measuredPower = measuredPower
        switch kind {
        case .androidRunningAverage: filter = RunningAverageRSSIFilter(window: 20)
        case .androidARMA: filter = ARMARSSIFilter(coefficient: 0.1, truncatesToInteger: true)
        case .androidARMAUntruncated: filter = ARMARSSIFilter(coefficient: 0.1, truncatesToInteger: false)
        case .roomAssistant: filter = BultenKalmanRSSIFilter(processNoise: 0.8, measurementNoise: 15)
        case .roomAssistantIssue: filter = BultenKalmanRSSIFilter(processNoise: 0.008, measurementNoise: 4)
        case .roomAssistantDistance: distanceFilter = BultenKalmanRSSIFilter(processNoise: 0.01, measurementNoise: 3)
        case .espresense: filter = InterquartileMeanRSSIFilter(window: 15)
        case .homeAssistant, .rawLogDistance: filter = nil
        }
    }

    public mutating func add(rssi: Double, at time: Double) {
        last = rssi
        if var distanceFilter {
            // kalmanjs on the per-packet distance (room-assistant 1.x); the filter is the same
            // arithmetic whatever it filters.
            if let metres = CurveFitDistanceModel.altBeacon.distance(rssi: rssi, measuredPower: measuredPower) {
                distanceFilter.add(metres, at: time)
            }
            self.distanceFilter = distanceFilter
        }
        filter?.add(rssi, at: time)
    }

    public mutating func estimate(at time: Double) -> DistanceEstimate? {
        let metres: Double?
        switch kind {
        case .androidRunningAverage, .androidARMA, .androidARMAUntruncated:
            metres = filter?.estimate(at: time).flatMap { CurveFitDistanceModel.nexus5.distance(rssi: $0, measuredPower: measuredPower) }
        case .roomAssistant, .roomAssistantIssue:
            metres = filter?.estimate(at: time)
                .flatMap { CurveFitDistanceModel.altBeacon.distance(rssi: $0, measuredPower: measuredPower) }
                .map { ($0 * 10).rounded(.toNearestOrAwayFromZero) / 10 }
        case .roomAssistantDistance:
            metres = distanceFilter?.estimate(at: time)
        case .espresense:
            metres = filter?.estimate(at: time).flatMap { LogDistanceModel.distance(rssi: $0, measuredPower: measuredPower, exponent: 2.7) }
        case .homeAssistant:
            metres = last.flatMap { CurveFitDistanceModel.altBeacon.distance(rssi: $0, measuredPower: measuredPower) }
                .map { $0.rounded(.toNearestOrEven) }
        case .rawLogDistance:
            metres = last.flatMap { LogDistanceModel.distance(rssi: $0, measuredPower: measuredPower, exponent: 2) }
        }
        return metres.map { DistanceEstimate(distance: $0) }
    }
}
