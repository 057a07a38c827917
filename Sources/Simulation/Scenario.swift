/// Everything one simulated run needs: the beacons, the walker's plan, the radio's
/// imperfections and the wall-clock time the run starts at (Unix seconds, for the capture).
public struct Scenario: Sendable, Hashable {
    public var title: String
    public var beacons: [SimulatedBeacon]
    public var plan: WalkPlan
    public var radio: RadioParameters
    public var startTime: Double

    /// 2026-01-01 09:00:00 UTC: opening time, so demo captures show plausible timestamps.
    public static let defaultStartTime = 1_767_258_000.0

    public init(title: String, beacons: [SimulatedBeacon], plan: WalkPlan, radio: RadioParameters,
                startTime: Double = Scenario.defaultStartTime) {
        self.title = title
        self.beacons = beacons
        self.plan = plan
        self.radio = radio
        self.startTime = startTime
    }

    /// The plan's length in seconds (one tour, back at the entrance).
    public var duration: Double { plan.duration }
}
