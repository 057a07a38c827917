import Ranging

/// One beacon as heard during one survey sample.
public struct SpotReading: Sendable, Equatable, Codable {
    /// The beacon id (`BeaconIdentity.description`).
    public var id: String
    /// Packets heard during the sample.
    public var packets: Int
    /// Median RSSI (dBm) and the 10th and 90th percentiles: the spread a visitor standing there sees.
    public var median: Double
    public var low: Double
    public var high: Double
    /// The 1 m power (dBm) and path-loss exponent the distance was computed with (catalog, frame or
    /// default: the same precedence as ranging).
    public var measuredPower: Double
    public var exponent: Double
    /// Metres, from the median; nil when the distance model cannot say.
    public var distance: Double?

    public init(
        id: String, packets: Int, median: Double, low: Double, high: Double, measuredPower: Double, exponent: Double,
        distance: Double?
    ) {
        self.id = id
        self.packets = packets
        self.median = median
        self.low = low
        self.high = high
        self.measuredPower = measuredPower
        self.exponent = exponent
        self.distance = distance
    }
}

/// Every beacon's readings at one spot over one stretch of time.
public struct SurveySample: Sendable, Equatable, Codable {
    /// 1, 2, ... in the order taken.
    public var index: Int
    /// Where the technician stood, metres on the plan.
    public var x: Double
    public var y: Double
    /// Capture time, seconds.
    public var start: Double
    public var end: Double
    /// Strongest first (by median, then id).
    public var readings: [SpotReading]

    public init(index: Int, spot: FloorPosition, start: Double, end: Double, readings: [SpotReading]) {
        self.index = index
        x = spot.x
        y = spot.y
        self.start = start
        self.end = end
        self.readings = readings.sorted { ($1.median, $0.id) < ($0.median, $1.id) }
    }

    public var spot: FloorPosition { FloorPosition(x: x, y: y) }

    public func reading(id: String) -> SpotReading? { readings.first { $0.id == id } }
}
