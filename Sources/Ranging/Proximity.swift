/// CoreLocation's proximity classes (`CLProximity`); the raw value is the NDJSON spelling.
public enum Proximity: String, Sendable, CaseIterable, Comparable, Codable {
    case immediate
    case near
    case far
    case unknown

    private var order: Int {
        switch self {
        case .immediate: 0
        case .near: 1
        case .far: 2
        case .unknown: 3
        }
    }

    public static func < (lhs: Proximity, rhs: Proximity) -> Bool { lhs.order < rhs.order }
}

/// Classifies distances into `Proximity` with hysteresis, so a beacon sitting on a boundary does
/// not flap every tick.
///
/// Two guards, both configurable: to leave its class a distance must cross the boundary by
/// `margin` (a fraction: with 0.15, near -> far needs d > 3.45 m and far -> near d < 2.61 m), and
/// the new class must then hold for `dwell` seconds of capture time (1 s: the margin does most of
/// the work, and a visitor arriving at an exhibit should see it `near` within about 2 s). From `unknown` the first
/// classification is immediate. Pure state: time is an argument.
public struct ProximityClassifier: Sendable, Equatable {
    public var immediateBelow: Double
    public var nearBelow: Double
    public var margin: Double
    public var dwell: Double
    public private(set) var current: Proximity = .unknown
    private var candidate: Proximity = .unknown
    private var candidateSince: Double = 0

    public init(immediateBelow: Double = 0.5, nearBelow: Double = 3.0, margin: Double = 0.15, dwell: Double = 1.0) {
        self.immediateBelow = immediateBelow
        self.nearBelow = nearBelow
        self.margin = margin
        self.dwell = dwell
    }

    /// The class without hysteresis.
    public func plainClass(of distance: Double) -> Proximity {
        guard distance >= 0, distance.isFinite else { return .unknown }
        if distance < immediateBelow { return .immediate }
        if distance < nearBelow { return .near }
        return .far
    }

    /// Feeds the distance (nil or negative when unknown) at `time`; returns the class to show.
    public mutating func update(distance: Double?, at time: Double) -> Proximity {
        guard let distance, distance >= 0, distance.isFinite else {
            current = .unknown
            candidate = .unknown
            return current
        }
        let proposed = classWithMargin(distance)
        if current == .unknown {
            current = plainClass(of: distance)
            candidate = current
            return current
        }
        if proposed == current {
            candidate = current
        } else if proposed != candidate {
            candidate = proposed
            candidateSince = time
        } else if time - candidateSince >= dwell {
            current = candidate
        }
        return current
    }

    /// Forgets the class (the beacon went silent).
    public mutating func reset() {
        current = .unknown
        candidate = .unknown
    }

    /// The class the distance would move to, given the current class and the margin.
    private func classWithMargin(_ distance: Double) -> Proximity {
        let plain = plainClass(of: distance)
        guard plain != current, current != .unknown else { return plain }
        let widen = 1 + margin
        switch current {
        case .immediate:
            // Leave immediate only when clearly past its upper boundary.
            return distance >= immediateBelow * widen ? plainClass(of: distance) : .immediate
        case .near:
            if distance < immediateBelow / widen { return .immediate }
            if distance >= nearBelow * widen { return .far }
            return .near
        case .far:
            if distance < nearBelow / widen { return distance < immediateBelow / widen ? .immediate : .near }
            return .far
        case .unknown:
            return plain
        }
    }
}
