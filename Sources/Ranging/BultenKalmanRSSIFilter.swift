/// The one-dimensional Kalman filter of Wouter Bulten's kalmanjs, with its naming: `R` is the
/// *process* noise and `Q` the *measurement* noise; A = C = 1, no control input. The first sample
/// seeds the state with covariance Q; each later one predicts (covariance + R), then corrects with
/// gain `P / (P + Q)`. Defaults R = 0.008, Q = 4 (the `kalman` filter). room-assistant uses it with
/// R = 0.8, Q = 15 on RSSI (2.x, `KalmanFilterable(Object, 0.8, 15)`) and with R = 0.01, Q = 3 on
/// the distance (1.x); `RangingEvaluation.FieldPipeline` runs both. Time is ignored (per-sample
/// model), as in the original.
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
