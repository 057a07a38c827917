import ArgumentParser
import Foundation
import Captures
import Ranging
import Sessions
import Simulation

/// `beacontop simulate`: a capture and its ground truth from the physical radio model.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a btsnoop capture of a simulated visitor walking past beacons, with its ground truth.",
        discussion: """
            The beacons come from --catalog (every exhibit needs an iBeacon id and a position) or the \
            built-in venue of --scenario. Beside FILE.btsnoop goes FILE.truth.ndjson: \
            the true position, distances and nearest exhibit every --truth-step seconds (docs/simulator.md).
            """
    )

    @Option(help: "An exhibit catalog (YAML) whose exhibits are the beacons, e.g. demo/museum.yaml.")
    var catalog: String?

    @Option(help: "The walk and radio: museum (every exhibit in catalog order, 10-25 s each) or tradeshow (booth crawl).")
    var scenario: VenueStyle = .museum

    @Option(help: "Seconds to simulate (default: one tour, door to door; longer repeats the tour).")
    var duration: Double?

    @Option(help: "Seed of the run: the same seed gives the same capture.")
    var seed: UInt64 = 1

    @Option(help: "Seconds between ground-truth samples.")
    var truthStep: Double = 0.5

    @Option(help: "The capture to write (btsnoop, datalink 1002).")
    var out: String

    /// A day: the longest run --duration takes, and the longest tour written without it.
    static let longestDuration = TourLength.longest
    /// The most ground-truth samples one run writes: a day at the default 0.5 s is 172,801. The
    /// truth file is built in memory, about 670 bytes a sample with the museum's ten beacons.
    static let mostTruthSamples = 200_000

    func validate() throws {
        if let duration, !(duration > 0 && duration <= Self.longestDuration) {
            throw ValidationError("--duration must be between 0 and \(Int(Self.longestDuration)) seconds, got \(duration)")
        }
        guard truthStep > 0, truthStep.isFinite else { throw ValidationError("--truth-step must be positive, got \(truthStep)") }
    }

    func run() throws {
        let truthPath = SimulatedRecording.truthPath(forCapture: out)
        // `--out` onto the catalog replaced it with a capture (`--catalog museum.yaml --out
        // museum.yaml`), as `--record` onto a capture did: refused the same way.
        for (output, flag) in [(out, "--out"), (truthPath, "--out's ground truth")] {
            if let refusal = InputOverwriteGuard.refusal(output: output, flag: flag, inputs: catalog.map { [$0] } ?? []) {
                throw MonitorRunner.usageError(refusal)
            }
        }
        // `--out` replaced any file: a name that collided with a radio recording lost it, which no
        // seed brings back. Refused as `--record` is (status 64, one line); a run is made again
        // after `rm`, or under another name.
        for (output, flag) in [(out, "--out"), (truthPath, "--out's ground truth")] {
            if let refusal = RecordingFileCreation.refusal(path: output, flag: flag) {
                throw MonitorRunner.usageError(refusal)
            }
        }
        let venue: Scenario
        if let catalog {
            // One line and status 1, as every command that reads a catalog says it: this one said
            // argument-parser's `Error: catalog line 2, ...`, without the file's name.
            do {
                venue = try scenario.scenario(catalog: try SourceOpening.catalog(catalog), seed: seed)
            } catch let error as SourceOpeningError {
                StandardError.report(error.description)
                throw ExitCode(1)
            } catch {
                StandardError.report("\(catalog): \(error)")
                throw ExitCode(1)
            }
        } else {
            venue = scenario.scenario(seed: seed)
        }
        // A tour weeks long was written for hours with no end in sight (TourLength).
        if duration == nil, venue.duration > TourLength.longest {
            throw MonitorRunner.usageError(
                TourLength.refusal(catalog ?? "the scenario", tour: venue.duration, limit: "simulate writes", remedy: "give --duration"))
        }
        // --truth-step was only required to be positive: 0.001 s over the museum tour wrote 141 MB
        // of truth, and 1e-300 s (or 0.001 s over a day) filled memory sample by sample without end.
        let runDuration = duration ?? venue.duration
        if runDuration / truthStep >= Double(Self.mostTruthSamples) {
            throw MonitorRunner.usageError(
                "--truth-step \(truthStep) s over \(Int(runDuration.rounded())) s makes more than \(Self.mostTruthSamples) truth samples, "
                    + "the most simulate writes; give a larger --truth-step or a shorter --duration")
        }
        let summary: SimulatedRecording.Summary
        do {
            summary = try SimulatedRecording.write(
                scenario: venue, seed: seed, duration: runDuration, truthStep: truthStep,
                capturePath: out, truthPath: truthPath, replacing: false
            )
        } catch {
            // As every command's failure to write: it was argument-parser's `Error: ...`.
            StandardError.report("\(error)")
            throw ExitCode(1)
        }
        var output = StandardOutput()
        output.write("\(out): \(summary.packets) advertisements from \(venue.beacons.count) beacons over \(Int(summary.duration.rounded())) s, \(summary.stays) stays\n")
        output.write("\(truthPath): \(summary.truthSamples) truth samples\n")
        try output.finish()
    }
}

extension VenueStyle: ExpressibleByArgument {}
