import BeaconFormats

/// Region enter and exit events, as CoreLocation's region monitoring gives them: a region is
/// entered when a matching beacon is heard, and exited only after no matching beacon has been
/// heard for `exitDelay` seconds (CoreLocation waits about 30 s, so a missed packet is no exit).
///
/// The engine reports, at each tick, when each region last heard a matching beacon; the monitor
/// keeps that time itself, so a beacon forgotten by the engine still exits its region correctly.
public struct RegionMonitor: Sendable, Equatable {
    public private(set) var regions: [BeaconRegion]
    public var exitDelay: Double
    private var lastHeard: [Double?]
    private var inside: [Bool]
    /// Regions a `replaceRegions` dropped while inside: each exits at the next `events(at:)`.
    private var dropped: [BeaconRegion] = []

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

    /// Takes a new list of regions (a replaced catalog's). A region in both lists keeps its state,
    /// so a visitor inside it sees no second `enter`; one no longer listed while inside exits at the
    /// next `events(at:)` (its visit ends when the catalog stops naming it); a new one starts outside.
    public mutating func replaceRegions(_ newRegions: [BeaconRegion]) {
        var heard = [Double?](repeating: nil, count: newRegions.count)
        var within = [Bool](repeating: false, count: newRegions.count)
        for (new, region) in newRegions.enumerated() {
            guard let old = regions.firstIndex(of: region) else { continue }
            heard[new] = lastHeard[old]
            within[new] = inside[old]
        }
        for old in regions.indices where inside[old] && !newRegions.contains(regions[old]) {
            dropped.append(regions[old])
        }
        regions = newRegions
        lastHeard = heard
        inside = within
    }

    /// The events at `time`: dropped regions' exits first, then in region order.
    public mutating func events(at time: Double) -> [RegionEvent] {
        var events: [RegionEvent] = []
        if !dropped.isEmpty {
            events = dropped.map { RegionEvent(kind: .exit, region: $0, time: time) }
            dropped = []
        }
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
