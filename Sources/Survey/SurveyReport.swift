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
        var files: [File] = []
        forEachFile(session, rule: rule) { files.append($0) }
        return files
    }

    /// The same files handed to `body` one at a time, each made only after the last was handed
    /// over, so the command writing them holds one map at a time. Every map draws the whole plan:
    /// collected first, a 10,000-exhibit plan with 200 beacons heard held 800 MB of maps (900 MB
    /// resident), and one with 1,700 heard would have needed 7 GB.
    public static func forEachFile<E: Error>(_ session: SurveySession, rule: CoverageRule = CoverageRule(), _ body: (File) throws(E) -> Void) throws(E) {
        try body(File(name: "overview.svg", contents: CoverageMapSVG.overview(session, rule: rule)))
        let letters = Dictionary(session.letters.map { ($0.id, $0.letter) }, uniquingKeysWith: { first, _ in first })
        for id in session.beaconIDs {
            try body(File(name: "beacon-\(letters[id]!).svg", contents: CoverageMapSVG.beaconMap(session, beaconID: id, rule: rule)))
        }
        try body(File(name: "samples.csv", contents: SurveyCSV.csv(session, rule: rule)))
    }
}
