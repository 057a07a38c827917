import BeaconFormats

/// Region enter and exit events, as CoreLocation's region monitoring gives them: a region is
/// entered when a matching beacon is heard, and exited only after no matching beacon has been
/// heard for `exitDelay` seconds (CoreLocation waits about 30 s, so a missed packet is no exit).
///
/// The engine reports, at each tick, when each region last heard a matching beacon; the monitor
/// keeps that time itself, so a beacon forgotten by the engine still exits its region correctly.
public struct RegionMonitor: Sendable, Equatable {
    public let regions: [BeaconRegion]
    public var exitDelay: Double
    private var lastHeard: [Double?]
    private var inside: [Bool]

    public init(regions: [BeaconRegion], exitDelay: Double = 30) {
        self.regions = regions
        self.exitDelay = exitDelay
        lastHeard = Array(repeating: nil, count: regions.count)
        inside = Array(repeating: false, count: regions.count)
    }

    /// The indices of the regions an identity belongs to (computed once per beacon).
    public func regionIndices(for identity: BeaconIdentity) -> [Int] {
        regions.indices.filter { regions[$0].contains(identity) }
    }

    /// Notes that region `index` heard a matching beacon at `time`.
    public mutating func heard(region index: Int, at time: Double) {
        guard regions.indices.contains(index) else { return }
        if let previous = lastHeard[index], previous >= time { return }
        lastHeard[index] = time
    }

    /// Whether the visitor is inside region `index` now.
    public func isInside(region index: Int) -> Bool {
        regions.indices.contains(index) && inside[index]
    }

    /// The events at `time`, in region order.
    public mutating func events(at time: Double) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for index in regions.indices {
            let present = lastHeard[index].map { time - $0 <= exitDelay } ?? false
            if present != inside[index] {
                inside[index] = present
                events.append(RegionEvent(kind: present ? .enter : .exit, region: regions[index], time: time))
            }
        }
        return events
    }
}
