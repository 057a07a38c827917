import Foundation

/// The evaluation's tables as Markdown, exactly as docs/ranging.md quotes them
/// (`beacontop-bench ranging-eval` prints them).
public enum EvaluationReport {
    static func f(_ value: Double?, _ decimals: Int = 2) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.\(decimals)f", value)
    }

    static func percent(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.0f%%", value * 100)
    }

    /// The issue's table beside this evaluation's reproduction of it.
    public static func reproduction(_ runs: [HeraldRun]) -> String {
        var text = "| run | Android RA | Android ARMA | room-assistant | ESPresense | beacontop (former) | former range held the truth |\n"
        text += "|---|---|---|---|---|---|---|\n"
        for run in runs {
            guard let issue = IssueTable.rows[run.name], let (ours, _) = IssueTable.reproduce(run) else { continue }
            func pair(_ a: Double, _ b: Double) -> String { "\(f(b)) (issue \(f(a)))" }
            text += "| \(run.name) | \(pair(issue.runningAverage, ours.runningAverage)) | \(pair(issue.arma, ours.arma)) | "
                + "\(pair(issue.roomAssistant, ours.roomAssistant)) | \(pair(issue.espresense, ours.espresense)) | "
                + "\(pair(issue.beacontop, ours.beacontop)) | \(percent(ours.rangeHeld)) (issue \(percent(issue.rangeHeld))) |\n"
        }
        return text
    }

    /// All runs side by side: each pipeline's median error on the common ticks, then beacontop's.
    public static func runSummary(_ evaluation: RunEvaluation) -> String {
        let kinds = FieldPipeline.Kind.allCases
        var text = "| run | " + kinds.map(\.title).joined(separator: " | ")
            + " | best of the four | beacontop | beacontop, 2nd point | range held (80%) | range width |\n"
        text += "|---|" + String(repeating: "---|", count: kinds.count + 5) + "\n"
        for row in evaluation.rows {
            let best = row.bestTarget
            text += "| \(row.run) | " + kinds.map { f(row.field[$0]?.medianError) }.joined(separator: " | ")
                + " | \(f(best?.error)) | **\(f(row.beacontop.medianError))** | \(f(row.beacontopCalibrated?.medianError)) | "
                + "\(percent(row.beacontop.coverage)) | \(f(row.beacontop.medianWidthFactor)) |\n"
        }
        let ratios = evaluation.rows.compactMap { row in row.bestTarget.map { row.beacontop.medianError / $0.error } }
        let calibrated = evaluation.rows.compactMap { row in
            row.beacontopCalibrated.flatMap { c in row.bestTarget.map { c.medianError / $0.error } }
        }
        let coverages = evaluation.rows.compactMap(\.beacontop.coverage)
        text += "\nbeacontop at or under the best of the four on \(ratios.filter { $0 <= 1.005 }.count) of \(ratios.count) runs "
            + "(its error over the best: mean x\(f(ratios.mean)), worst x\(f(ratios.max()))); with the second point "
            + "\(calibrated.filter { $0 <= 1.005 }.count) of \(calibrated.count) (mean x\(f(calibrated.mean))); "
            + "the range held the truth on \(percent(coverages.min()))-\(percent(coverages.max())) of ticks.\n"
        text += "\n| pipeline | error over the best of the four: mean | worst | runs at or under it |\n|---|---|---|---|\n"
        func ratioLine(_ name: String, _ score: (RunEvaluation.Row) -> RunScore?) -> String {
            let ratios = evaluation.rows.compactMap { row in score(row).flatMap { s in row.bestTarget.map { s.medianError / $0.error } } }
            return "| \(name) | x\(f(ratios.mean)) | x\(f(ratios.max())) | \(ratios.filter { $0 <= 1.005 }.count) of \(ratios.count) |\n"
        }
        for kind in kinds { text += ratioLine(kind.title) { $0.field[kind] } }
        text += ratioLine("**beacontop**") { $0.beacontop }
        text += ratioLine("beacontop, second point") { $0.beacontopCalibrated }
        return text
    }

    /// What was learned for each held-out run, and on all runs (what ships).
    public static func learning(_ learning: ModelLearning) -> String {
        var text = "| learned without | exponent | exponent spread | shadowing (dB) | second point's error | filter noise floor (dB) | "
            + "criterion on the training runs | range scale, near end | range scale, far end |\n|---|---|---|---|---|---|---|---|---|\n"
        func line(_ name: String, _ learned: ModelLearning.Learned) -> String {
            "| \(name) | \(f(learned.fit.exponent)) | \(f(learned.fit.exponentSpread)) | \(f(learned.fit.shadowing)) | "
                + "\(f(learned.fit.calibratedExponentSpread)) | \(f(learned.noiseFloor, 0)) | "
                + "x\(f(exp(learned.trainingCriterion))) | \(f(learned.rangeScaleNear)) | \(f(learned.rangeScaleFar)) |\n"
        }
        for run in learning.training { if let learned = learning.heldOut[run.name] { text += line(run.name, learned) } }
        return text + line("**none (shipped)**", learning.all)
    }

    /// The bound in hindsight beside the target and beacontop (`HindsightBound`).
    public static func hindsight(_ evaluation: RunEvaluation) -> String {
        var text = "| run | best of the four | beacontop | line through 1 m with this run's own best exponent (hindsight) | that exponent | "
            + "least-squares exponent of the run |\n|---|---|---|---|---|---|\n"
        for row in evaluation.rows {
            guard let run = evaluation.learning.training.first(where: { $0.name == row.run }) else { continue }
            let bound = HindsightBound.best(run, floor: evaluation.learning.all.noiseFloor)
            text += "| \(row.run) | \(f(row.bestTarget?.error)) | \(f(row.beacontop.medianError)) | \(f(bound.error)) | "
                + "\(f(bound.exponent)) | \(f(run.fit?.exponent)) |\n"
        }
        return text
    }

    /// The range's bound in hindsight (`RangeHindsight`) beside what the held-out runs got.
    public static func rangeHindsight(_ evaluation: RunEvaluation) -> String {
        let hindsight = RangeHindsight(evaluation)
        let (one, two) = (hindsight.best(separateEnds: false), hindsight.best(separateEnds: true))
        var text = "| run | range held (learned without the run) | one scale chosen on the scored runs (\(f(one.near))) | "
            + "a scale per end chosen on the scored runs (near \(f(two.near)), far \(f(two.far))) |\n|---|---|---|---|\n"
        for (index, name) in hindsight.runs.enumerated() {
            let held = evaluation.rows.first { $0.run == name }?.beacontop.coverage
            text += "| \(name) | \(percent(held)) | \(percent(one.coverages[index])) | \(percent(two.coverages[index])) |\n"
        }
        return text
    }

    /// One run: every pipeline a row.
    public static func run(_ row: RunEvaluation.Row) -> String {
        let learned = row.learned
        var text = "**\(row.run)**: measured power at 1 m \(f(row.measuredPower, 1)) dBm; \(row.commonTicks) of \(row.scoredTicks) "
            + "scored ticks answered by every pipeline; model learned on the other runs: exponent \(f(row.fit.exponent)), "
            + "spread \(f(row.fit.exponentSpread)), shadowing \(f(row.fit.shadowing, 1)) dB, filter noise floor \(f(learned.noiseFloor, 0)) dB, "
            + "range scales \(f(learned.rangeScaleNear)) (near end) and \(f(learned.rangeScaleFar)) (far end)"
            + (row.calibratedExponent.map { "; second point's exponent \(f($0))" } ?? "") + ".\n\n"
        text += "| pipeline | median error (m) | answered | range held | range width (factor) |\n|---|---|---|---|---|\n"
        for kind in FieldPipeline.Kind.allCases {
            guard let score = row.field[kind] else { continue }
            text += "| \(kind.title) | \(f(score.medianError)) | \(percent(score.answeredShare)) | - | - |\n"
        }
        text += "| **beacontop** | **\(f(row.beacontop.medianError))** | \(percent(row.beacontop.answeredShare)) | "
            + "\(percent(row.beacontop.coverage)) | \(f(row.beacontop.medianWidthFactor)) |\n"
        if let calibrated = row.beacontopCalibrated {
            text += "| beacontop, second calibration point | \(f(calibrated.medianError)) | \(percent(calibrated.answeredShare)) | "
                + "\(percent(calibrated.coverage)) | \(f(calibrated.medianWidthFactor)) |\n"
        }
        return text
    }

    /// One world: every pipeline a row.
    public static func world(_ world: WorldEvaluation) -> String {
        let seeds = world.seeds.isEmpty ? "none" : "\(world.seeds.first!)-\(world.seeds.last!)"
        var text = "**\(world.kind.title)**, seeds \(seeds) (\(world.seeds.count) walks, \(world.beacontop.moves) moves, "
            + "\(world.beacontop.ticks) stay ticks scored):\n\n"
        text += "| pipeline | nearest right (stay ticks after 2 s) | worst walk | changes per move | median distance error (m) | range held | range width |\n"
        text += "|---|---|---|---|---|---|---|\n"
        func line(_ name: String, _ totals: WorldEvaluation.Totals) -> String {
            "| \(name) | \(String(format: "%.1f%%", totals.nearestShare * 100)) | \(percent(totals.walkShares.min())) | "
                + "\(f(totals.changesPerMove)) | \(f(totals.medianError)) | \(percent(totals.coverage)) | \(f(totals.medianWidthFactor)) |\n"
        }
        text += line("**beacontop**", world.beacontop)
        for kind in FieldPipeline.Kind.allCases {
            if let totals = world.field[kind] { text += line(kind.title + " (nearest: smallest distance)", totals) }
        }
        let cue = world.beacontop.cue
        if cue.standing.ticks + cue.moving.ticks > 0 {
            text += "\nThe movement cue (fired / acted, acted: fired with a candidate silent beyond the nearest window):\n\n"
                + "| ticks | scored | " + MovementCueCount.columns.joined(separator: " | ") + " |\n|---|---|---|---|---|---|\n"
                + "| standing (stay ticks after 2 s) | \(cue.standing.ticks) | \(cue.standing.cells) |\n"
                + "| moving | \(cue.moving.ticks) | \(cue.moving.cells) |\n"
        }
        if !world.byRun.isEmpty {
            text += "\nbeacontop per HERALD run behind the walk:\n\n| run | nearest right | changes per move | median distance error (m) | range held | range width |\n|---|---|---|---|---|---|\n"
            for (name, totals) in world.byRun.sorted(by: { $0.key < $1.key }) {
                text += "| \(name) | \(String(format: "%.1f%%", totals.nearestShare * 100)) | \(f(totals.changesPerMove)) | "
                    + "\(f(totals.medianError)) | \(percent(totals.coverage)) | \(f(totals.medianWidthFactor)) |\n"
            }
        }
        return text
    }
}

extension EvaluationReport {
    /// beacontop's nearest misses and extra changes by cause, one row per world
    /// (`NearestDiagnosis`; docs/ranging.md's classification table).
    public static func nearestDiagnosis(_ worlds: [WorldEvaluation]) -> String {
        func share(_ count: Int, _ of: Int) -> String { of == 0 ? "-" : "\(count) (\(String(format: "%.1f%%", Double(count) / Double(of) * 100)))" }
        var text = "Misses, in stay ticks scored (share of them):\n\n"
        text += "| world | seeds | stay ticks | right | (a) arrival | (b) whole stay, RSSI says the neighbour | (b') whole stay, RSSI says the visited | (c) mid-stay | whole stays lost / stays | median arrival (s) |\n"
        text += "|---|---|---|---|---|---|---|---|---|---|\n"
        for world in worlds {
            let d = world.diagnosis
            let seeds = world.seeds.isEmpty ? "none" : "\(world.seeds.first!)-\(world.seeds.last!)"
            text += "| \(world.kind.rawValue) | \(seeds) | \(d.stayTicks) | \(share(d.stayTicks - d.misses, d.stayTicks)) | "
                + "\(share(d.arrivalMisses, d.stayTicks)) | \(share(d.wholeStayNeighbourLouder, d.stayTicks)) | "
                + "\(share(d.wholeStayVisitedLouder, d.stayTicks)) | \(share(d.midStayMisses, d.stayTicks)) | "
                + "\(d.wholeStays) / \(d.stays) | \(f(median(d.arrivalDelays), 1)) |\n"
        }
        text += "\nChanges of nearest, per real move:\n\n"
        text += "| world | moves | changes per move | needed | (c) mid-stay | (d) pass-through | (d') walking flicker |\n"
        text += "|---|---|---|---|---|---|---|\n"
        for world in worlds {
            let d = world.diagnosis
            let perMove = { (count: Int) in d.moves == 0 ? "-" : "\(count) (\(String(format: "%.2f", Double(count) / Double(d.moves))))" }
            text += "| \(world.kind.rawValue) | \(d.moves) | \(f(Double(d.changes) / Double(max(d.moves, 1)))) | \(perMove(d.neededChanges)) | "
                + "\(perMove(d.midStayChanges)) | \(perMove(d.passThroughChanges)) | \(perMove(d.walkingFlickers)) |\n"
        }
        return text
    }
}

extension Array where Element == Double {
    var mean: Double? { isEmpty ? nil : reduce(0, +) / Double(count) }
}
