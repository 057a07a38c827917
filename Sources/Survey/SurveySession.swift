/// A survey: the plan it is taken on and the samples taken so far. Saved as NDJSON (`SurveyLog`)
/// one sample per line as it is taken, so it can be resumed.
public struct SurveySession: Sendable, Equatable {
    public var plan: SurveyPlan
    /// When the survey was started (capture time, seconds).
    public var created: Double
    /// The catalog file the plan was copied from, as given; for the record only.
    public var catalogPath: String?
    public internal(set) var samples: [SurveySample]

    public init(plan: SurveyPlan, created: Double, catalogPath: String? = nil, samples: [SurveySample] = []) {
        self.plan = plan
        self.created = created
        self.catalogPath = catalogPath
        self.samples = samples
    }

    /// The index the next sample gets.
    public var nextIndex: Int { (samples.last?.index ?? 0) + 1 }

    /// Adds a sample taken with `SampleCollector`, renumbered to follow the last.
    public mutating func add(_ sample: SurveySample) {
        var numbered = sample
        numbered.index = nextIndex
        samples.append(numbered)
    }

    /// Takes the last sample back (its save failed), so the session holds what the file holds.
    public mutating func withdrawLast() -> SurveySample? {
        samples.popLast()
    }

    /// Each beacon's letter on the maps: the plan's beacons A, B... in plan order, then the beacons
    /// heard but not in the plan, continuing the letters in `beaconIDs` order.
    public var letters: [(id: String, letter: String)] {
        let planned = plan.beacons.map(\.id)
        let inPlan = Set(planned)
        return (planned + beaconIDs.filter { !inPlan.contains($0) }).enumerated().map { ($1, SurveyPlan.label($0)) }
    }

    /// Each sample's coverage, in sample order.
    public func coverage(rule: CoverageRule = CoverageRule()) -> [SpotCoverage] {
        let exhibits = plan.exhibitIDs
        return samples.map { SpotCoverage($0, exhibits: exhibits, rule: rule) }
    }

    /// The ids of every beacon heard in any sample, plan beacons first (in plan order), then the
    /// others by id: one coverage map each.
    public var beaconIDs: [String] {
        let heard = Set(samples.flatMap { $0.readings.map(\.id) })
        let planned = plan.beacons.map(\.id)
        return planned.filter(heard.contains) + heard.subtracting(planned).sorted()
    }
}
