/// The one-dimensional Kalman filter room-assistant uses (Wouter Bulten's kalmanjs), with its
/// naming: `R` is the *process* noise (0.008) and `Q` the *measurement* noise (4); A = C = 1, no
/// control input. The first sample seeds the state with covariance Q; each later one predicts
/// (covariance + R), then corrects with gain `P / (P + Q)`.
///
/// room-assistant runs it on the computed distance; beacontop runs it on RSSI like every other
/// filter here, so they can be compared on the same input. Time is ignored (per-sample model), as
/// in the original.
public struct BultenKalmanRSSIFilter: RSSIFilter {
    /// Process noise (kalmanjs `R`).
    public let processNoise: Double
    /// Measurement noise (kalmanjs `Q`).
    public let measurementNoise: Double
    private var state: Double?
    private var covariance: Double = 0

    public init(processNoise: Double = 0.008, measurementNoise: Double = 4) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    public var estimateVariance: Double? { state == nil ? nil : covariance }

    public mutating func add(_ rssi: Double, at time: Double) {
        guard let x = state else {
            state = rssi
            covariance = measurementNoise
            return
        }
        let predicted = covariance + processNoise
        let gain = predicted / (predicted + measurementNoise)
        state = x + gain * (rssi - x)
        covariance = predicted - gain * predicted
    }

    public mutating func estimate(at time: Double) -> Double? { state }

    public mutating func reset() {
        state = nil
        covariance = 0
    }
}
