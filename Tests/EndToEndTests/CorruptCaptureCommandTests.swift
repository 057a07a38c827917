import Foundation
import TestFixtures
import Testing

/// A capture whose header field cannot be true (a record of 1 MiB) stops every headless command
/// there with status 2 after writing what came before (docs/commands.md "beacontop decode"). `scan
/// FILE` wrote the same lines as `replay` but exited 0, so a script could not tell the file was damaged.
@Suite struct CorruptCaptureCommandTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    /// `govee-h5100.btsnoop` with the 101st record's lengths set to 1 MiB (at byte 6336), in a
    /// temporary file.
    static func corruptCapture() throws -> String {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        var offset = 16
        for _ in 0..<100 {
            offset += 24 + bytes[(offset + 4)..<(offset + 8)].reduce(0) { $0 << 8 | Int($1) }
        }
        for field in [offset, offset + 4] { bytes.replaceSubrange(field..<(field + 4), with: [0x00, 0x10, 0x00, 0x00]) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("decode, replay, report and scan (ticks, frames, text) stop at a corrupt record length with status 2")
    func everyCommandSaysTwo() throws {
        let path = try Self.corruptCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var outputs: [String: String] = [:]
        for arguments in [["decode", path], ["replay", path, "--json"], ["report", path], ["scan", path, "--json"],
                          ["scan", path, "--json", "--frames"], ["scan", path], ["scan", path, "--json", "--speed", "100"]] {
            let run = try HostileInputCommandTests.run(arguments, timeout: 60)
            #expect(run.status == 2 && !run.timedOut, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("corrupt btsnoop included length at byte 6336"), "\(arguments): \(run.stderr)")
            outputs[arguments.joined(separator: " ")] = run.stdout
        }
        // What came before the damage is written, the same lines by scan as by replay.
        let ticks = try #require(outputs["replay \(path) --json"])
        #expect(ticks.split(separator: "\n").count >= 2)
        #expect(outputs["scan \(path) --json"] == ticks)
        // The whole file still scans with status 0.
        let whole = try HostileInputCommandTests.run(["scan", SharedData.capture("govee-h5100.btsnoop").path, "--json"], timeout: 60)
        #expect(whole.status == 0, "\(whole.stderr)")
    }
}
