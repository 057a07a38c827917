/// What `survey --report` writes: the overview map, one map per beacon heard, and the sample
/// table, as (file name, contents) pairs; writing them is the command's job.
public enum SurveyReport {
    public struct File: Sendable, Equatable {
        public var name: String
        public var contents: String
    }

    /// `overview.svg`, `beacon-A.svg`... (the beacon's letter on the plan; beacons heard but not in
    /// the plan continue the letters), and `samples.csv`.
    public static func files(_ session: SurveySession, rule: CoverageRule = CoverageRule()) -> [File] {
        var files = [File(name: "overview.svg", contents: CoverageMapSVG.overview(session, rule: rule))]
        let letters = Dictionary(session.letters.map { ($0.id, $0.letter) }, uniquingKeysWith: { first, _ in first })
        for id in session.beaconIDs {
            files.append(File(name: "beacon-\(letters[id]!).svg", contents: CoverageMapSVG.beaconMap(session, beaconID: id, rule: rule)))
        }
        files.append(File(name: "samples.csv", contents: SurveyCSV.csv(session, rule: rule)))
        return files
    }
}
