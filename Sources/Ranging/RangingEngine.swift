import BeaconFormats
import Foundation
import HCI

/// The ranging engine: fed sightings with their capture times, it keeps per-beacon state in
/// bounded memory and, at each `tick(at:)`, says for every beacon what CoreLocation's ranging
/// would (RSSI, accuracy in metres, proximity) plus the nearest exhibit and region events.
///
/// A value type owned by one thread (the pipeline or the monitor loop). It never reads a clock:
/// time only ever comes from the sightings and the tick argument, so a replay is deterministic.
/// Memory is bounded: at most `maxBeacons` tracks (the least recently heard is evicted), each
/// with fixed-size buffers.
public struct RangingEngine: Sendable {
    /// The tunables, behind one reference: inline, the 600-byte configuration made the engine a
    /// struct the compiler copied whole around calls on the per-sighting path (perf, memcpy).
    private var settings: Settings
    public var configuration: RangingConfiguration { settings.value }
    public private(set) var catalog: ExhibitCatalog?
    /// iBeacon and AltBeacon tracks by a flat key in an open-addressing table (this lookup runs for
    /// every sighting; see `FlatBeaconTable`); other kinds by identity.
    private var flatIndex = FlatBeaconTable()
    private var index: [BeaconIdentity: Int] = [:]
    private var tracks: [BeaconTrack] = []
    private var selector: NearestExhibitSelector
    private var regionMonitor: RegionMonitor
    private var dwell: DwellTracker
    public private(set) var evictedBeacons = 0
    public private(set) var lastTick: Double?
    /// The movement cue of the latest tick, under the movement cue's rules only.
    public private(set) var lastMovementCue: MovementCue?
    /// The catalog's `nearestWithin`, else the configuration's.
    private var nearestWithin: Double?

    /// - Parameters:
    ///   - catalog: when given, only its exhibits can be `nearest`, and its calibration overrides apply.
    ///   - regions: regions to monitor; defaults to the catalog's (none without a catalog).
    public init(configuration: RangingConfiguration = RangingConfiguration(), catalog: ExhibitCatalog? = nil, regions: [BeaconRegion]? = nil) {
        settings = Settings(configuration)
        self.catalog = catalog
        nearestWithin = catalog?.nearestWithin ?? configuration.nearestWithin
        selector = NearestExhibitSelector(
            hysteresis: configuration.nearestHysteresis,
            evidenceThreshold: configuration.nearestEvidence,
            leadClip: configuration.nearestLeadClip,
            minimumHold: configuration.nearestMinimumHold,
            matchWindow: configuration.nearestMatchWindow,
            fallDeadBand: configuration.nearestFallDeadBand
        )
        regionMonitor = RegionMonitor(regions: regions ?? catalog?.regions ?? [], exitDelay: configuration.regionExitDelay)
        dwell = DwellTracker(resumeWithin: configuration.visitResumeWithin)
    }

    /// How many beacons are tracked now.
    public var trackedBeacons: Int { tracks.count }

    /// Feeds one sighting. Returns the beacon evicted to make room for a new one (the least
    /// recently heard, when `maxBeacons` are tracked), so state kept beside the engine can follow.
    @discardableResult
    public mutating func record(_ sighting: Sighting) -> BeaconIdentity? {
        // A corrupt timestamp would poison the filter for good; such a sighting is dropped.
        guard sighting.time.isFinite else { return nil }
        if let position = position(of: sighting.identity) {
            tracks[position].record(sighting, staleAfter: settings.value.staleAfter)
            return nil
        }
        let evicted = tracks.count >= settings.value.maxBeacons ? evictLeastRecentlyHeard() : nil
        var track = makeTrack(for: sighting)
        track.record(sighting, staleAfter: settings.value.staleAfter)
        setPosition(tracks.count, of: sighting.identity)
        tracks.append(track)
        return evicted
    }

    /// Feeds a decoded sighting, if it is rangeable (`BeaconSighting.isRangeable`): the same as
    /// `record(Sighting(...))`, but an iBeacon already tracked is found by its flat key and ranged
    /// without building its `BeaconIdentity` and `Sighting` (the replay's hot path: those enum
    /// copies cost as much as decoding the report).
    public mutating func record(_ sighting: BeaconSighting) {
        if recordTracked(sighting) { return }
        recordNew(sighting)
    }

    /// As `record(_:)`, returning the beacon evicted to make room, if any: state kept beside the
    /// engine (the monitor's detail extras) follows the engine's cap this way. (A separate entry:
    /// returning an optional identity from the hot path cost the replay 5% more instructions.)
    public mutating func recordEvicting(_ sighting: BeaconSighting) -> BeaconIdentity? {
        if recordTracked(sighting) { return nil }
        return recordNew(sighting)
    }

    /// The fast path: an iBeacon already tracked. An iBeacon frame is never telemetry, so with an
    /// RSSI it is rangeable, no more to ask.
    @inline(__always)
    private mutating func recordTracked(_ sighting: BeaconSighting) -> Bool {
        guard case .iBeacon(let beacon) = sighting.frame, let rssi = sighting.rssi, sighting.timestamp.isFinite,
              let position = flatIndex[FlatBeaconKey(beacon)] else { return false }
        tracks[position].record(
            time: sighting.timestamp, rssi: Int(rssi), measuredPower: Int(beacon.measuredPower), address: sighting.address,
            staleAfter: settings.value.staleAfter
        )
        return true
    }

    @discardableResult
    private mutating func recordNew(_ sighting: BeaconSighting) -> BeaconIdentity? {
        guard sighting.isRangeable, let rssi = sighting.rssi else { return nil }
        return record(Sighting(time: sighting.timestamp, frame: sighting.frame, address: sighting.address, rssi: Int(rssi)))
    }

    /// Computes the snapshot at `time`: forgets long-silent beacons, classifies, picks the nearest
    /// exhibit, sorts it first and the rest by distance, and reports region events since the
    /// previous tick.
    public mutating func tick(at time: Double) -> RangingSnapshot {
        forgetSilentBeacons(at: time)
        var readings: [BeaconReading] = []
        readings.reserveCapacity(tracks.count)
        var candidates: [NearestExhibitSelector.Candidate] = []
        candidates.reserveCapacity(tracks.count)
        var silent: [Bool] = []
        var silentCandidates: [BeaconIdentity] = []
        let moved = configuration.silentRankRule.usesMovementCue && configuration.silentRankLevel != nil ? movementCue(at: time) : false
        for position in tracks.indices {
            let exhibit = tracks[position].exhibitIndex.flatMap { catalog?.exhibits[$0] }
            // With a catalog only its exhibits can be nearest: no window level for the others.
            let (reading, windowRSSI) = tracks[position].tickReading(
                at: time, settings: settings, exhibit: exhibit, windowLevel: catalog == nil || exhibit != nil
            )
            var isSilent = false
            if let level = configuration.silentRankLevel {
                switch configuration.silentRankRule {
                case .ownGaps: isSilent = tracks[position].isSilentBeyondOwnGaps(at: time, level: level, floor: configuration.nearestWindow)
                case .missedPackets: isSilent = tracks[position].isSilentBeyondLikely(at: time, level: level)
                case .movedApart, .changed:
                    // The level stays stale until the beacon is heard again: one tick's cue, not a flicker.
                    if moved, time - tracks[position].lastSeen > configuration.nearestWindow { tracks[position].movedAwayAt = time }
                    isSilent = tracks[position].lastSeen < tracks[position].movedAwayAt
                }
            }
            if let windowRSSI, let candidate = nearestCandidate(reading, windowRSSI: windowRSSI) {
                candidates.append(candidate)
                if isSilent { silentCandidates.append(candidate.key) }
            }
            if configuration.silentRankLevel != nil { silent.append(isSilent) }
            readings.append(reading)
            tracks[position].packetsSinceTick = 0
            if time - tracks[position].lastSeen <= configuration.regionExitDelay {
                for region in tracks[position].regionIndices {
                    regionMonitor.heard(region: region, at: tracks[position].lastSeen)
                }
            }
        }
        // Silent beyond likely: out of the running while any heard beacon is in it.
        if !silentCandidates.isEmpty, candidates.count > silentCandidates.count {
            candidates.removeAll { silentCandidates.contains($0.key) }
        }

        let nearest = selector.update(candidates: candidates, at: time)
        let nearestPosition = nearest.flatMap { key in readings.firstIndex { $0.identity == key } }
        // A visit is the time an exhibit is nearest *and* near: the highlight never goes blank,
        // but walking across a hall past a booth 6 m away is not dwelling at it.
        let nearestIsNear = nearestPosition.map { readings[$0].proximity == .near || readings[$0].proximity == .immediate } ?? false
        // The decided nearest heads the list, as CoreLocation's closest heads its ranged array: the
        // top line and the highlight agree. Sort small keys, not the readings: a reading is a few
        // hundred bytes and the sort's moves were a tenth of a replay's time.
        var keys = readings.map { $0.accuracy < 0 ? Double.infinity : $0.accuracy }
        if let nearestPosition {
            keys[nearestPosition] = -Double.infinity
            if !silent.isEmpty { silent[nearestPosition] = false }
        }
        let order = readings.indices.sorted { a, b in
            if !silent.isEmpty, silent[a] != silent[b] { return !silent[a] }
            return keys[a] != keys[b] ? keys[a] < keys[b] : readings[a].identity < readings[b].identity
        }
        Self.reorder(&readings, by: order)
        dwell.update(nearest: nearestIsNear ? nearest?.description : nil, at: time)
        let events = regionMonitor.events(at: time)
        lastTick = time
        return RangingSnapshot(time: time, beacons: readings, nearest: nearest, events: events, evictedBeacons: evictedBeacons)
    }

    /// Per-exhibit visits and dwell time up to `time`, as a report table.
    public func dwellReport(at time: Double) -> DwellReport {
        DwellReport(totals: dwell.totals(at: time), catalog: catalog)
    }

    /// Takes a new catalog (the calibration wizard saved a measured power into it) keeping every
    /// beacon's state: its filter (RSSI, so a new measured power only changes the distance computed
    /// from it, from the next tick), proximity, the nearest exhibit, visits and region membership (no
    /// second `enter` for a visitor already inside). A beacon the new catalog no longer lists stops
    /// being a nearest candidate at the next tick; a region it drops while inside exits then.
    /// Regions passed to `init(regions:)` are replaced by the new catalog's.
    public mutating func replaceCatalog(_ catalog: ExhibitCatalog?) {
        self.catalog = catalog
        nearestWithin = catalog?.nearestWithin ?? configuration.nearestWithin
        regionMonitor.replaceRegions(catalog?.regions ?? [])
        for position in tracks.indices {
            let entry = catalogEntry(for: tracks[position].identity)
            tracks[position].exhibitIndex = entry.exhibitIndex
            tracks[position].measuredPowerOverride = entry.exhibit?.measuredPower
            tracks[position].pathLossExponent = entry.exponent
            tracks[position].posterior = entry.posterior
            tracks[position].regionIndices = entry.regionIndices
        }
    }

    /// Switches every beacon to a new filter kind (the monitor's `f`), keeping the rest of the
    /// engine's state as `replaceCatalog` does: each filter starts empty and fills from the beacon's
    /// next packet, and no visit ends or region is entered again because of the switch.
    public mutating func selectFilter(_ kind: RSSIFilterKind) {
        var configuration = settings.value
        configuration.filter = kind
        settings = Settings(configuration)
        for position in tracks.indices { tracks[position].replaceFilter(with: makeFilter()) }
    }

    // MARK: - Internals

    /// Whether the beacons heard since the previous tick moved apart (or changed, by the rule)
    /// beyond their own noise (`MovementCue` at `silentRankLevel`); kept in `lastMovementCue` for
    /// the evaluation.
    private mutating func movementCue(at time: Double) -> Bool {
        guard let previous = lastTick, let level = configuration.silentRankLevel else { return false }
        var cue = MovementCue()
        for position in tracks.indices where tracks[position].packetsSinceTick > 0 {
            if let (change, variance) = tracks[position].movementChange(
                since: previous, at: time, window: configuration.nearestWindow, staleAfter: configuration.staleAfter
            ) {
                cue.add(change: change, variance: variance)
            }
        }
        lastMovementCue = cue
        let tail = configuration.silentRankRule == .changed ? cue.magnitudeTailProbability : cue.tailProbability
        return tail.map { $0 < level } ?? false
    }

    /// A beacon heard within `staleAfter` (a catalog exhibit when there is a catalog), with its level
    /// for the nearest choice: the window quantile of its RSSI relative to measured power, scaled to
    /// the default exponent when the catalog gives the beacon its own (so a dB of lead is the same
    /// distance ratio for every beacon). No distance gate: exhibits are compared with each other,
    /// so shadowing that makes every estimate far does not leave nobody nearest. Only a catalog's
    /// `nearestWithin` excludes a beacon, when even the near end of its range is beyond it.
    private func nearestCandidate(_ reading: BeaconReading, windowRSSI rssi: Double) -> NearestExhibitSelector.Candidate? {
        if let limit = nearestWithin, let range = reading.accuracyRange, range.lowerBound > limit { return nil }
        var level = rssi - reading.measuredPower.dBm
        // Only a catalog exponent rescales: x * n / n is not always x in floating point, and an
        // evidence sum landing an ulp short of its threshold would hand over a tick later.
        if reading.pathLossExponent != configuration.pathLossExponent {
            level *= configuration.pathLossExponent / reading.pathLossExponent
        }
        return NearestExhibitSelector.Candidate(key: reading.identity, level: level)
    }

    /// What the catalog and regions say about a beacon: looked up when it is first heard and when
    /// the catalog is replaced, never per sighting.
    private func catalogEntry(for identity: BeaconIdentity) -> (
        exhibitIndex: Int?, exhibit: Exhibit?, exponent: Double, posterior: PathLossPosteriorTable?, regionIndices: [Int]
    ) {
        let exhibitIndex = catalog?.index(ofID: identity.description)
        let exhibit = exhibitIndex.flatMap { catalog?.exhibits[$0] }
        let exponent = exhibit?.pathLossExponent ?? configuration.pathLossExponent
        var posterior: PathLossPosteriorTable?
        if case .posterior(let prior) = configuration.distanceModel {
            posterior = prior.table(
                exponent: configuration.pathLossExponent, catalogExponent: exhibit?.pathLossExponent, probability: configuration.rangeProbability
            )
        }
        return (exhibitIndex, exhibit, exponent, posterior, regionMonitor.regionIndices(for: identity))
    }

    private func makeTrack(for sighting: Sighting) -> BeaconTrack {
        let entry = catalogEntry(for: sighting.identity)
        return BeaconTrack(
            identity: sighting.identity, address: sighting.address, time: sighting.time, filter: makeFilter(),
            classifier: ProximityClassifier(
                immediateBelow: configuration.immediateBelow, nearBelow: configuration.nearBelow,
                margin: configuration.proximityMargin, dwell: configuration.proximityDwell
            ),
            exhibitIndex: entry.exhibitIndex,
            measuredPowerOverride: entry.exhibit?.measuredPower,
            pathLossExponent: entry.exponent, posterior: entry.posterior,
            regionIndices: entry.regionIndices,
            arrivalHistory: configuration.arrivalHistory
        )
    }

    private func makeFilter() -> any RSSIFilter {
        configuration.filter == .adaptive
            ? AdaptiveKalmanRSSIFilter(parameters: configuration.adaptiveFilter)
            : configuration.filter.makeFilter()
    }

    /// Puts `elements[order[i]]` at `i`, following each cycle of the permutation with swaps: a swap
    /// moves a reading without the retains and releases of a copy.
    static func reorder<Element>(_ elements: inout [Element], by order: [Int]) {
        var source = order
        // The buffer's swapAt moves memory; Array's copies through a temporary.
        elements.withUnsafeMutableBufferPointer { buffer in
            for start in source.indices {
                var position = start
                while source[position] != start {
                    let next = source[position]
                    buffer.swapAt(position, next)
                    source[position] = position
                    position = next
                }
                source[position] = position
            }
        }
    }

    /// By distance (the order after `nearest`'s beacon): unknown accuracies last; ties by id so the
    /// order is deterministic.
    static func nearestFirst(_ a: BeaconReading, _ b: BeaconReading) -> Bool {
        let ka = a.accuracy < 0 ? Double.infinity : a.accuracy
        let kb = b.accuracy < 0 ? Double.infinity : b.accuracy
        if ka != kb { return ka < kb }
        return a.identity < b.identity
    }

    private mutating func forgetSilentBeacons(at time: Double) {
        var position = 0
        while position < tracks.count {
            if time - tracks[position].lastSeen > configuration.forgetAfter {
                remove(at: position)
            } else {
                position += 1
            }
        }
    }

    private mutating func evictLeastRecentlyHeard() -> BeaconIdentity? {
        guard let oldest = tracks.indices.min(by: { tracks[$0].lastSeen < tracks[$1].lastSeen }) else { return nil }
        let identity = tracks[oldest].identity
        remove(at: oldest)
        evictedBeacons += 1
        return identity
    }

    /// Swap-remove, keeping the index consistent.
    private mutating func remove(at position: Int) {
        let last = tracks.count - 1
        setPosition(nil, of: tracks[position].identity)
        if position != last {
            tracks.swapAt(position, last)
            setPosition(position, of: tracks[position].identity)
        }
        tracks.removeLast()
    }

    @inline(__always)
    private func position(of identity: BeaconIdentity) -> Int? {
        if let key = FlatBeaconKey(identity) { return flatIndex[key] }
        return index[identity]
    }

    private mutating func setPosition(_ position: Int?, of identity: BeaconIdentity) {
        if let key = FlatBeaconKey(identity) { flatIndex[key] = position } else { index[identity] = position }
    }
}

extension RangingEngine {
    /// An immutable configuration shared by reference (see `settings`).
    final class Settings: Sendable {
        let value: RangingConfiguration
        /// `value.rangeQuantile`, computed once.
        let rangeQuantile: Double
        init(_ value: RangingConfiguration) {
            self.value = value
            rangeQuantile = value.rangeQuantile
        }
    }
}
