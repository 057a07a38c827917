import Foundation

extension EvaluationReport {
    /// The library walk's table: each pipeline's pick of the nearest beacon, scored per tick
    /// (`LibraryWalkEvaluation`), one column pair per table of beacon positions.
    public static func libraryWalk(_ walk: LibraryWalk, _ evaluations: [(title: String, evaluation: LibraryWalkEvaluation)]) -> String {
        guard let first = evaluations.first?.evaluation else { return "" }
        var text = "\(walk.rowCount) labelled rows in \(walk.sessions.count) sessions (recording days), "
            + "\(first.rawStrongest.scored) ticks scored. Right: the issue's ties (lowest-numbered beacon among equally "
            + "strong and among equally near ones) / any of the equally near beacons.\n\n"
        text += "| pipeline |" + evaluations.map { " \($0.title) |" }.joined() + "\n"
        text += "|---|" + evaluations.map { _ in "---|" }.joined() + "\n"
        func cell(_ tally: LibraryWalkEvaluation.Tally) -> String {
            " \(String(format: "%.1f%%", tally.share * 100)) / \(String(format: "%.1f%%", tally.shareAnyNearest * 100)) |"
        }
        text += "| raw strongest RSSI of the row |" + evaluations.map { cell($0.evaluation.rawStrongest) }.joined() + "\n"
        text += "| **beacontop**, first beacon of the tick |" + evaluations.map { cell($0.evaluation.beacontopFirst) }.joined() + "\n"
        text += "| **beacontop**, `nearest` |" + evaluations.map { cell($0.evaluation.beacontopNearest) }.joined() + "\n"
        for kind in FieldPipeline.Kind.allCases where first.field[kind] != nil {
            text += "| \(kind.title) (smallest distance) |" + evaluations.map { cell($0.evaluation.field[kind]!) }.joined() + "\n"
        }
        return text
    }
}

extension EvaluationReport {
    /// The ticks where beacontop's first beacon and the raw strongest part, by cause
    /// (`LibraryWalkDiagnosis`).
    public static func libraryWalkDiagnosis(_ diagnosis: LibraryWalkDiagnosis) -> String {
        var text = "| beacontop's pick in the row | raw right, beacontop wrong (after a move / standing) | beacontop right, raw wrong (after a move / standing) |\n|---|---|---|\n"
        for cause in LibraryWalkDiagnosis.Cause.allCases {
            let wrong = diagnosis.beacontopWrong[cause] ?? .init(), right = diagnosis.beacontopRight[cause] ?? .init()
            guard wrong.total + right.total > 0 else { continue }
            text += "| \(cause.rawValue) | \(wrong.total) (\(wrong.afterMove) / \(wrong.standing)) | \(right.total) (\(right.afterMove) / \(right.standing)) |\n"
        }
        return text
    }
}

extension EvaluationReport {
    /// The library walk per recording day, under the issue's ties: where the filters' memory
    /// matters (a day logged without gaps) and where it does not (gaps over `staleAfter` restart
    /// them).
    public static func libraryWalkByDay(_ walk: LibraryWalk, _ evaluation: LibraryWalkEvaluation) -> String {
        var text = "| day | rows | median gap between rows (s) | raw strongest | beacontop first beacon | beacontop `nearest` |\n|---|---|---|---|---|---|\n"
        for (number, session) in walk.sessions.enumerated() {
            let ticks = evaluation.ticks.filter { $0.session == number }
            guard !ticks.isEmpty else { continue }
            func share(_ pick: (LibraryWalkEvaluation.Tick) -> Int?) -> String {
                String(format: "%.1f%%", Double(ticks.filter { pick($0) == $0.nearest[0] }.count) / Double(ticks.count) * 100)
            }
            let gap = median(zip(session.rows, session.rows.dropFirst()).map { $1.time - $0.time }) ?? 0
            text += "| \(session.day) | \(session.rows.count) | \(String(format: "%.1f", gap)) | \(share { $0.strongest.first }) | \(share(\.first)) | \(share(\.engineNearest)) |\n"
        }
        return text
    }
}
