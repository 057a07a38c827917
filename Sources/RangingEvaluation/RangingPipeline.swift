/// Anything the evaluation can range a run with: fed every packet of a beacon in time order, asked
/// for a distance at each tick. The field's pipelines (`FieldPipeline`) and beacontop's engine
/// (`EnginePipeline`) are fed exactly the same packets.
public protocol RangingPipeline {
    /// One received packet (dBm) at capture time `time`.
    mutating func add(rssi: Double, at time: Double)
    /// The distance the pipeline would show at `time`, with its range when it states one; nil when
    /// it shows none (nothing heard yet, or the beacon counts as gone).
    mutating func estimate(at time: Double) -> DistanceEstimate?
}

/// A pipeline's answer at one tick.
public struct DistanceEstimate: Sendable, Equatable {
    /// Metres.
    public var distance: Double
    /// The interval the pipeline claims holds the truth (beacontop: with `rangeProbability`).
    public var range: ClosedRange<Double>?
    /// beacontop only: the loss it ranged, `P1m - filtered RSSI` (dB). Its distance and range are
    /// a function of this alone (a lookup in the model's table), so the evaluation can learn the
    /// model's choices on training runs from one pass of the engine over each.
    public var loss: Double?

    public init(distance: Double, range: ClosedRange<Double>? = nil, loss: Double? = nil) {
        self.distance = distance
        self.range = range
        self.loss = loss
    }
}
