import Foundation
import TestFixtures
import Testing

/// `survey --report` writes each map before it draws the next. Every map draws the whole plan, so
/// a large plan makes large maps: collected first, a 10,000-exhibit plan with 200 beacons heard
/// held 800 MB of maps (900 MB resident) before writing the first.
@Suite struct SurveyReportMemoryTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// A survey of a `planned`-exhibit plan with one sample hearing the first `heard` of them.
    static func survey(planned: Int, heard: Int) -> String {
        func id(_ index: Int) -> String { "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:\(index)" }
        let beacons = (0..<planned).map { #"{"id":"\#(id($0))","name":"Exhibit \#($0)","x":\#(Double($0 % 50)),"y":\#(Double($0 / 50))}"# }
        let readings = (0..<heard).map {
            #"{"id":"\#(id($0))","packets":10,"median":-70,"low":-75,"high":-65,"measuredPower":-59,"exponent":2,"distance":3}"#
        }
        return #"{"type":"survey","version":1,"created":1700000000,"plan":{"title":"Big hall","beacons":[\#(beacons.joined(separator: ","))],"walls":[]}}"#
            + "\n" + #"{"type":"sample","index":1,"x":2,"y":2,"start":1700000010,"end":1700000015,"readings":[\#(readings.joined(separator: ","))]}"# + "\n"
    }

    /// Runs beacontop with `arguments` (standard output discarded) and returns its exit status and
    /// peak resident size in bytes, measured by python3 (installed for Bumble by Tests/setup.sh)
    /// as the largest child's `ru_maxrss`. Not by wait4 here: posix_spawn shares this test
    /// process's memory until the exec, and the kernel counts that as the child's peak.
    static func peakResident(_ arguments: [String]) throws -> (status: Int32, peak: Int) {
        let script = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
            print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let run = try ExternalCommand.run(try ExternalCommand.find("python3"), ["-c", script, beacontopExecutable] + arguments)
        let fields = run.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 2 else { throw ExternalCommand.Missing(description: "python3 said \(run.stdout) \(run.stderr)") }
        return (Int32(fields[0]), fields[1] * 1024)
    }

    @Test func aLargePlanIsReportedOneMapAtATime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("survey-report-big-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.survey(planned: 2500, heard: 100).write(to: directory.appendingPathComponent("survey.ndjson"), atomically: true, encoding: .utf8)
        let run = try Self.peakResident(["survey", "--report", directory.path])
        #expect(run.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("beacon-") }
        #expect(files.count == 100)
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent($1).path)[.size] as? Int ?? 0)
        }
        // About 100 MB of maps, 1 MB each; beacontop itself takes about 35 MB. Holding every map
        // before writing, it took more than all of them.
        #expect(written > 80 << 20, "\(written) bytes written")
        #expect(run.peak < written / 2, "peak resident \(run.peak >> 20) MB for \(written >> 20) MB of files")
    }
}
