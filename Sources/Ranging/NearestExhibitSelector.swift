import BeaconFormats
import Foundation

/// Chooses the exhibit the visitor is nearest, handing over fast when the evidence for a new
/// exhibit is strong and holding on when it is ambiguous, so two exhibits at nearly the same
/// distance do not make it flicker.
///
/// Candidates are compared by their *level*: received power relative to the beacon's measured
/// power, in dB, normalised to a path-loss exponent of 2 (`2 (rssi - P1m) / n`, that is
/// `-20 log10(distance)`), so a 1 dB lead is the same distance ratio (12%) for every beacon.
///
/// The switch rule is a sequential test (a one-sided CUSUM, Page 1954): at each update the
/// strongest challenger's lead over the holder, minus a `hysteresis` in dB, is added to an evidence
/// sum, weighted by the seconds since the previous update; the sum never goes below zero, restarts
/// when a different challenger takes the lead, and the challenger takes over once it reaches
/// `evidenceThreshold` (dB·s) and the holder has held at least `minimumHold` seconds. A challenger
/// 8 dB ahead (after arriving at a new exhibit) takes over in one second; one 2 dB ahead needs
/// several seconds of consistent lead; one that is ahead and behind by turns (shadowing on two
/// equidistant beacons) never piles up enough. When the holder stops being a candidate (far,
/// silent, forgotten) the strongest candidate takes over at once, or nobody.
///
/// A lead the holder made by falling alone is not evidence: over the last `matchWindow` seconds
/// the holder fell by `fall` (its best level then minus now) and the challenger rose by `rise`
/// (now minus its lowest then); the part of the fall no rise matched, beyond `fallDeadBand`, is
/// taken off the lead. A fade, a shadow or the body at the holder with the neighbours steady then
/// earns a neighbour at most what the band leaves until it has lasted the window; a move, which
/// changes both levels, goes through (docs/ranging-history.md, "Seventh round").
public struct NearestExhibitSelector: Sendable, Equatable {
    /// dB a challenger must lead by before its lead counts as evidence.
    public var hysteresis: Double
    /// Accumulated lead beyond the hysteresis (dB·s) that hands the title over.
    public var evidenceThreshold: Double
    public var minimumHold: Double
    /// The most lead (dB) one second can add: a holder's deep fade is not a hand-over by itself.
    public var leadClip: Double
    /// Seconds over which the holder's fall and the challenger's rise are compared. 3 s: longer
    /// than the 2-s median's half window, so a fall is seen whole, shorter than a stay's unscored
    /// first 2 s plus a hand-over (fixed in the sixth round, before any score).
    public var matchWindow: Double
    /// dB of unmatched fall still credited: the 90% quantile (3.5 dB) of `fall - rise` while a
    /// visitor stands still, pooled over three walk worlds' tuning seeds, so the noise of the two
    /// 3-s differences, which a one-sided correction would only ever subtract, is left alone on
    /// nine ticks in ten (measured before it was scored; docs/ranging-history.md, "Seventh round").
    public var fallDeadBand: Double
    public private(set) var holder: BeaconIdentity?
    /// The current challenger's accumulated evidence, dB·s.
    public private(set) var evidence: Double = 0
    private var heldSince: Double = 0
    private var challenger: BeaconIdentity?
    private var lastUpdate: Double?
    /// Every update's candidates over the last `matchWindow` seconds, oldest first.
    private var recent: [RecentLevels] = []

    struct RecentLevels: Sendable, Equatable {
        var time: Double
        var candidates: [Candidate]
    }

    public init(hysteresis: Double = 1, evidenceThreshold: Double = 6, leadClip: Double = 4, minimumHold: Double = 2,
                matchWindow: Double = 3, fallDeadBand: Double = 3.5) {
        self.hysteresis = hysteresis
        self.evidenceThreshold = evidenceThreshold
        self.leadClip = leadClip
        self.minimumHold = minimumHold
        self.matchWindow = matchWindow
        self.fallDeadBand = fallDeadBand
    }

    /// One candidate: a stable key and its level (dB relative to measured power, at n = 2).
    public struct Candidate: Sendable, Equatable {
        public var key: BeaconIdentity
        public var level: Double

        public init(key: BeaconIdentity, level: Double) {
            self.key = key
            self.level = level
        }

        /// A candidate at `distance` metres: level `-20 log10(distance)`.
        public init(key: BeaconIdentity, distance: Double) {
            self.init(key: key, level: -20 * log10(max(distance, 1e-6)))
        }
    }

    /// Feeds this tick's candidates; returns the nearest exhibit or nil.
    ///
    /// - Parameter floor: the level a candidate is weighed against when there is no holder (or the
    ///   holder stopped being a candidate): nobody is nearest until a candidate's lead over it
    ///   piles up like a challenger's. `-infinity` (the default) admits the strongest at once.
    public mutating func update(candidates: [Candidate], at time: Double, floor: Double = -.infinity) -> BeaconIdentity? {
        let elapsed = lastUpdate.map { min(max(time - $0, 0), 5) } ?? 0
        lastUpdate = time
        // A small slack keeps the update exactly matchWindow ago (ticks a whole second apart); a
        // clock that went back (a looped replay) leaves no level from "the future" behind.
        recent.removeAll { $0.time < time - matchWindow - 1e-9 || $0.time > time }
        recent.append(RecentLevels(time: time, candidates: candidates))
        let current = holder
        var heldLevel = floor
        var strongest: Candidate?
        for candidate in candidates {
            if candidate.key == current {
                heldLevel = candidate.level
                continue
            }
            // Levels first: identities compare by their printed id, a string built per comparison.
            if let leader = strongest, candidate.level < leader.level || candidate.level == leader.level && !(candidate.key < leader.key) {
                continue
            }
            strongest = candidate
        }
        if current != nil, heldLevel == floor, !candidates.contains(where: { $0.key == current }) {
            // The holder is far, silent or forgotten: nobody holds any more.
            holder = nil
        }
        guard let rival = strongest else {
            challenger = nil
            evidence = 0
            return holder
        }
        if holder == nil, floor == -.infinity {
            take(rival.key, at: time)
            return holder
        }
        // A new challenger starts from nothing; with nobody holding, the evidence is that someone
        // is near, so it carries over when the lead passes from one candidate to another.
        if challenger != rival.key {
            if holder != nil { evidence = 0 }
            challenger = rival.key
        }
        var lead = min(rival.level - heldLevel - hysteresis, leadClip)
        // An unmatched fall only lowers the lead: with no evidence and no lead it changes nothing,
        // and that is most ticks of a monitor watching many beacons.
        if lead > 0 || evidence > 0 {
            lead = min(rival.level - heldLevel - unmatchedFall(of: holder, against: rival, heldLevel: heldLevel) - hysteresis, leadClip)
        }
        evidence = max(0, evidence + lead * elapsed)
        if evidence >= evidenceThreshold, holder == nil || time - heldSince >= minimumHold {
            take(rival.key, at: time)
        }
        return holder
    }

    /// The holder's fall over the last `matchWindow` seconds that the rival's rise does not match,
    /// less `fallDeadBand` (0 when nobody holds).
    private func unmatchedFall(of holder: BeaconIdentity?, against rival: Candidate, heldLevel: Double) -> Double {
        guard let holder, heldLevel > -.infinity, let now = recent.last?.candidates else { return 0 }
        let holderHint = now.firstIndex { $0.key == holder }, rivalHint = now.firstIndex { $0.key == rival.key }
        var best = heldLevel, lowest = rival.level
        for update in recent.dropLast() {
            if let level = Self.level(of: holder, in: update.candidates, hint: holderHint) { best = max(best, level) }
            if let level = Self.level(of: rival.key, in: update.candidates, hint: rivalHint) { lowest = min(lowest, level) }
        }
        return max(0, (best - heldLevel) - (rival.level - lowest) - fallDeadBand)
    }

    /// A beacon's level among an update's candidates, looked for first where it is now (a
    /// monitor's candidates come in the same order tick after tick; identities are slow to compare).
    private static func level(of key: BeaconIdentity, in candidates: [Candidate], hint: Int?) -> Double? {
        if let hint, hint < candidates.count, candidates[hint].key == key { return candidates[hint].level }
        return candidates.first { $0.key == key }?.level
    }

    private mutating func take(_ key: BeaconIdentity, at time: Double) {
        holder = key
        heldSince = time
        challenger = nil
        evidence = 0
    }
}
