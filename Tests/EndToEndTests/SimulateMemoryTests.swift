import Foundation
import TestFixtures
import Testing

/// `simulate` writes its ground truth as it samples it. It built the whole file in memory first:
/// 500 beacons over 3 hours made 570 MB of truth and 1.2 GB resident.
@Suite struct SimulateMemoryTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("simulate with a 100-beacon catalog and a fine --truth-step: resident memory well under the truth file's size")
    func theTruthIsWrittenAsItIsSampled() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-memory-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every truth line lists each beacon's distance: 100 beacons, 10,001 lines, about 50 MB.
        var catalog = "title: Hundred\nexhibits:\n"
        for index in 0..<100 {
            catalog += "  - id: \"8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:\(index + 1)\"\n    name: E\(index)\n"
                + "    position: [\(Double(index % 10) * 3), \(Double(index / 10) * 3)]\n"
        }
        let catalogPath = directory.appendingPathComponent("hundred.yaml").path
        try catalog.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let capture = directory.appendingPathComponent("walk.btsnoop").path
        let run = try SurveyReportMemoryTests.peakResident(
            ["simulate", "--catalog", catalogPath, "--duration", "20", "--truth-step", "0.002", "--out", capture]
        )
        #expect(run.status == 0)
        let truth = try #require(
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("walk.truth.ndjson").path)[.size] as? Int
        )
        #expect(truth > 40 << 20, "\(truth) bytes of truth")
        // beacontop itself takes about 33 MB; holding the truth as a string took it twice over.
        #expect(run.peak < truth, "peak resident \(run.peak >> 20) MB for \(truth >> 20) MB of truth")
    }
}
