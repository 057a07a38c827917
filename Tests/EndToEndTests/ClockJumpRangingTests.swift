import Foundation
import TestFixtures
import Testing

/// A real capture whose clock jumps mid-file through `replay --json` (the built binary): ranging
/// time never runs back, and a jump forward of days is waited over, not ticked through.
@Suite struct ClockJumpRangingTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    struct Tick {
        var time: Double
        var beacons: [[String: Any]]
    }

    /// The tick lines of `replay --json path`.
    static func ticks(_ path: String) throws -> [Tick] {
        let run = try HostileInputCommandTests.run(["replay", "--json", path])
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        return try run.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Tick(time: try #require(object["t"] as? Double), beacons: object["beacons"] as? [[String: Any]] ?? [])
        }
    }

    /// Ticks in which a beacon was heard since the one before.
    static func heard(_ ticks: [Tick]) -> Int {
        ticks.filter { tick in tick.beacons.contains { ($0["packets"] as? Int ?? 0) > 0 } }.count
    }

    @Test("a clock set back 100 s mid-capture: ranging runs on from where it was, no stretch lost")
    func stepBackRangesOn() throws {
        let (path, _) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try Self.ticks(SharedData.capture("govee-h5100.btsnoop").path)
        let jumped = try Self.ticks(path)
        // Tick times still rise.
        for (before, after) in zip(jumped, jumped.dropFirst()) { #expect(after.time > before.time) }
        // The packets after the jump were ranged with ticks of their own: before, no tick came
        // until the file's clock passed the jump again (never, here), so the last 96 s were missing.
        #expect(abs(jumped.count - original.count) <= 1, "\(jumped.count) ticks, \(original.count) without the jump")
        #expect(Self.heard(jumped) >= Self.heard(original) - 1, "\(Self.heard(jumped)) ticks heard a beacon, \(Self.heard(original)) without the jump")
        let last = try #require(jumped.last), lastOriginal = try #require(original.last)
        #expect(abs(last.time - lastOriginal.time) <= 1)
        // The same beacons, heard as recently: the last one after the jump was not dated 100 s back.
        func state(_ tick: Tick) -> [String] { tick.beacons.map { "\($0["id"] ?? "") stale \($0["stale"] ?? "")" }.sorted() }
        #expect(state(last) == state(lastOriginal))
    }

    @Test("a clock set back 100 s mid-capture: report's visits and durations are the unedited capture's")
    func stepBackReport() throws {
        let (path, _) = try ClockJumpCapture.write(by: -100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try HostileInputCommandTests.run(["report", SharedData.capture("govee-h5100.btsnoop").path])
        let jumped = try HostileInputCommandTests.run(["report", path])
        #expect(jumped.status == 0 && original.status == 0, "\(jumped.stderr)")
        #expect(original.stdout.contains("visits"))
        #expect(jumped.stdout == original.stdout)
    }

    @Test("a clock set forward 3 days mid-capture: one empty tick, then ticks at the new time")
    func stepForwardWaitsOver() throws {
        let days: Int64 = 3 * 86_400
        let (path, _) = try ClockJumpCapture.write(by: days)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try Self.ticks(SharedData.capture("govee-h5100.btsnoop").path)
        let jumped = try Self.ticks(path)
        let first = try #require(original.first).time
        for (before, after) in zip(jumped, jumped.dropFirst()) { #expect(after.time > before.time) }
        // Not a tick per second of the 3 days: the beacons are forgotten, one empty tick, then the
        // ticks resume at the packet after the jump.
        #expect(jumped.count <= original.count + 60, "\(jumped.count) ticks, \(original.count) without the jump")
        #expect(jumped.contains { $0.time >= first + Double(days) + 300 && !$0.beacons.isEmpty })
        #expect(Self.heard(jumped) >= Self.heard(original) - 2)
    }
}
