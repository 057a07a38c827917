import Foundation
import Ranging
import RangingEvaluation

/// `beacontop-bench ranging-eval [--seeds FIRST-LAST] [--runs-only] [--level mean|median] [--body-loss DB] [--range-ends separate]
/// [--nearest-only] [--by-distance] [--far-slope none|A|B|C] [--cusum per-sample|per-second] [--silent-rank LEVEL]
/// [--silent-rule missed-packets|own-gaps|moved-apart|changed] [--nearest-memory forget|stale|interval] [--library-only] [--library-walk CSV] [HERALD-DIR]`: the ranging evaluation of docs/ranging.md, printed as the Markdown tables the docs
/// quote. Real runs are scored leave-one-run-out; the worlds on seeds no parameter was chosen on
/// (101-120 by default; the real-trace walk one more, so each of the seven runs is behind three
/// walks).
/// `--level median` makes the default filter report the median of the packets since its last
/// detected change instead of its mean (everything is learned again for it, fold by fold).
/// `--body-loss DB` sets the model's a-priori body term (0 leaves it out; the default is 10 dB).
/// `--range-ends separate` learns a scale per end of the range instead of one for both.
/// `--nearest-only` prints the walks' tables and nearest's misses and changes by cause
/// (`NearestDiagnosis`), without the runs' tables (the tuning seeds: `--nearest-only --seeds 1-20`).
/// `--by-distance` prints the walks' tables and beacontop's distance error and range misses by
/// true distance (`DistanceBuckets`) and what is learned, without the runs' scored tables.
/// `--far-slope` sets the model's second slope beyond 3.4 m to one of the tenth round's variants
/// (`PathLossFarSlope`), or none.
/// `--cusum per-second` lowers the default filter's CUSUM threshold for beacons heard less often
/// than 10 times a second, keeping false restarts per second (`CUSUMThreshold`); `--silent-rank
/// LEVEL` ranks a beacon silent beyond LEVEL's likelihood below heard ones (the twelfth round).
/// `--silent-rule own-gaps` judges that silence against the beacon's own recent gaps instead, and
/// `--nearest-memory stale` keeps the nearest level's stand-in packets within `staleAfter` (the
/// thirteenth round). `--silent-rule moved-apart` ranks down a beacon silent beyond the
/// nearest window only at a tick where the heard beacons moved apart beyond their own noise, and
/// `changed` where they changed, alike or not (`MovementCue`, the fourteenth round; LEVEL is the
/// cue's tail probability). `--nearest-memory interval` takes no stand-in packets from before the
/// last max(nearest window, advertising interval), at least the newest (the fifteenth round).
/// `--library-only` prints only the library walk's table (`LibraryWalkEvaluation`), read from
/// `Tests/LibraryWalk/iBeacon_RSSI_Labeled.csv` or `--library-walk CSV`.
enum RangingEvaluationBenchmark {
    static func run(_ arguments: [String]) throws {
        var seeds: ClosedRange<UInt64> = 101...120
        var runsOnly = false
        var base = RangingConfiguration()
        var directory = (ProcessInfo.processInfo.environment["BEACONTOP_SHARED_DATA"] ?? "../shared/data") + "/herald"
        var separateEnds = false
        var nearestOnly = false
        var byDistance = false
        var libraryOnly = false
        var libraryPath = "Tests/LibraryWalk/iBeacon_RSSI_Labeled.csv"
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seeds":
                let parts = (rest.popFirst() ?? "").split(separator: "-").compactMap { UInt64($0) }
                guard parts.count == 2, parts[0] <= parts[1] else { throw UsageError(message: "--seeds takes FIRST-LAST, e.g. 101-120") }
                seeds = parts[0]...parts[1]
            case "--runs-only": runsOnly = true
            case "--nearest-only": nearestOnly = true
            case "--by-distance": byDistance = true
            case "--library-only": libraryOnly = true
            case "--library-walk":
                guard let path = rest.popFirst() else { throw UsageError(message: "--library-walk takes the labelled CSV's path") }
                libraryPath = path
            case "--body-loss":
                guard let loss = Double(rest.popFirst() ?? ""), loss >= 0 else { throw UsageError(message: "--body-loss takes DB, e.g. 0") }
                guard case .posterior(var prior) = base.distanceModel else { break }
                prior.bodyLoss = loss
                base.distanceModel = .posterior(prior)
            case "--far-slope":
                let variants: [String: PathLossFarSlope?] = ["none": nil, "A": .variantA, "B": .variantB, "C": .variantC]
                guard let name = rest.popFirst(), let variant = variants[name] else { throw UsageError(message: "--far-slope takes none, A, B or C") }
                guard case .posterior(var prior) = base.distanceModel else { break }
                prior.farSlope = variant
                base.distanceModel = .posterior(prior)
            case "--range-ends":
                guard let ends = rest.popFirst(), ends == "separate" || ends == "one" else {
                    throw UsageError(message: "--range-ends takes one or separate")
                }
                separateEnds = ends == "separate"
            case "--level":
                guard let level = AdaptiveKalmanRSSIFilter.Level(rawValue: rest.popFirst() ?? "") else {
                    throw UsageError(message: "--level takes mean or median")
                }
                base.adaptiveFilter.level = level
            case "--cusum":
                guard let rule = AdaptiveKalmanRSSIFilter.ThresholdRule(rawValue: rest.popFirst() ?? "") else {
                    throw UsageError(message: "--cusum takes per-sample or per-second")
                }
                base.adaptiveFilter.thresholdRule = rule
            case "--silent-rank":
                guard let level = Double(rest.popFirst() ?? ""), level > 0, level < 1 else {
                    throw UsageError(message: "--silent-rank takes a probability between 0 and 1, e.g. 0.01")
                }
                base.silentRankLevel = level
            case "--silent-rule":
                guard let rule = SilentRankRule(rawValue: rest.popFirst() ?? "") else {
                    throw UsageError(message: "--silent-rule takes missed-packets, own-gaps, moved-apart or changed")
                }
                base.silentRankRule = rule
            case "--nearest-memory":
                guard let memory = NearestMemory(rawValue: rest.popFirst() ?? "") else {
                    throw UsageError(message: "--nearest-memory takes forget, stale or interval")
                }
                base.nearestMemory = memory
            default: directory = argument
            }
        }
        if libraryOnly { return try printLibraryWalk(libraryPath, base: base) }
        let runs = try HeraldRun.loadAll(directory: URL(fileURLWithPath: directory))
        guard !runs.isEmpty else { throw UsageError(message: "no HERALD runs (*.csv) in \(directory)") }

        let traces = RunTraces.all(runs, base: base)
        let learning = ModelLearning(traces: traces, base: base, separateEnds: separateEnds)
        if nearestOnly {
            let worlds = walks(seeds: seeds, runs: runs, learning: learning, base: base)
            for world in worlds { print(EvaluationReport.world(world)) }
            print("### Where nearest loses, by cause\n")
            print(EvaluationReport.nearestDiagnosis(worlds))
            return
        }
        if byDistance {
            let worlds = walks(seeds: seeds, runs: runs, learning: learning, base: base)
            for world in worlds { print(EvaluationReport.world(world)) }
            print("### Distance error and the range's misses by true distance\n")
            print(EvaluationReport.distanceBuckets(worlds))
            print("### What is learned, fold by fold\n")
            print(EvaluationReport.learning(learning))
            return
        }
        print("## The issue's table, reproduced\n")
        print(EvaluationReport.reproduction(runs))
        let fits = runs.compactMap(PathLossFit.runFit)
        print("## Each run's path loss\n\n| run | exponent | residual (dB) | exponent from 1 m and 2 m |\n|---|---|---|---|")
        for fit in fits {
            print("| \(fit.name) | \(String(format: "%.2f", fit.exponent)) | \(String(format: "%.2f", fit.residual)) | \(fit.twoPointExponent.map { String(format: "%.2f", $0) } ?? "-") |")
        }
        print("\n## What is learned, fold by fold\n")
        print(EvaluationReport.learning(learning))
        let evaluation = RunEvaluation(traces: traces, learning: learning, base: base)
        print("## Real runs, leave-one-run-out\n")
        print(EvaluationReport.runSummary(evaluation))
        print("### In hindsight: the best a log-distance line could do on each run\n")
        print(EvaluationReport.hindsight(evaluation))
        print("### In hindsight: the best a range's scales could do\n")
        print(EvaluationReport.rangeHindsight(evaluation))
        for row in evaluation.rows { print(EvaluationReport.run(row)) }
        guard !runsOnly else { return }
        print("## Simulated and real-trace walks\n")
        let worlds = walks(seeds: seeds, runs: runs, learning: learning, base: base)
        for world in worlds { print(EvaluationReport.world(world)) }
        print("### Where nearest loses, by cause\n")
        print(EvaluationReport.nearestDiagnosis(worlds))
        try printLibraryWalk(libraryPath, base: base)
    }

    /// The library walk (issue 9's real walk with labelled positions), with both tables of beacon
    /// positions in circulation.
    static func printLibraryWalk(_ path: String, base: RangingConfiguration) throws {
        let walk = try LibraryWalk(contentsOf: URL(fileURLWithPath: path))
        print("## A real walk with labelled positions: the library floor\n")
        let evaluation = LibraryWalkEvaluation(walk, cells: LibraryWalk.beaconCells, configuration: base)
        print(EvaluationReport.libraryWalk(walk, [
            ("b3004 S04, b3007 S07", evaluation),
            ("b3004 R04, b3007 R07", LibraryWalkEvaluation(walk, cells: LibraryWalk.beaconCellsShifted, configuration: base)),
        ]))
        print("### The library walk by recording day\n")
        print(EvaluationReport.libraryWalkByDay(walk, evaluation))
        print("### Where beacontop's first beacon and the raw strongest part, by cause\n")
        print(EvaluationReport.libraryWalkDiagnosis(LibraryWalkDiagnosis(evaluation)))
    }

    static func walks(seeds: ClosedRange<UInt64>, runs: [HeraldRun], learning: ModelLearning, base: RangingConfiguration) -> [WorldEvaluation] {
        WorldEvaluation.Kind.allCases.map { kind in
            let last = kind == .realTrace || kind == .realTraceShared ? seeds.upperBound + 1 : seeds.upperBound
            // The simulated worlds get the model learned on all runs: what ships (a test keeps the
            // defaults in step).
            return WorldEvaluation(kind, seeds: Array(seeds.lowerBound...last), runs: runs, learning: learning,
                                   base: learning.all.configuration(base))
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
