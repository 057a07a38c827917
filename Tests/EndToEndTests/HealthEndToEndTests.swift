import Foundation
import TestFixtures
import Testing

/// Beacon health, duplicates and address rotation through the product: a capture of real frames
/// shaped to each case (`HealthScenario`) replayed by the built executable, read back as NDJSON
/// and as the monitor's screen in a real terminal.
@Suite(.serialized)
struct HealthEndToEndTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    typealias Object = [String: Any]

    /// `replay --json --health` (or `scan FILE --json --health`) of the scenario, one object per line.
    static func ticks(_ command: [String]) throws -> [Object] {
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("health.btsnoop").path
        let catalog = directory.appendingPathComponent("health.yaml").path
        let result = try ExternalCommand.run(beacontopExecutable, [command[0], capture] + command.dropFirst() + ["--exhibits", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? Object, "not an object: \(line)")
        }
    }

    static func beacon(_ tick: Object, _ id: String) -> Object? {
        (tick["beacons"] as? [Object])?.first { $0["id"] as? String == id }
    }

    static func events(_ ticks: [Object], type: String) -> [Object] {
        ticks.flatMap { ($0["events"] as? [Object]) ?? [] }.filter { $0["type"] as? String == type }
    }

    @Test(arguments: [["replay", "--json", "--health"], ["scan", "--json", "--health"]])
    func healthFieldsAndAddressEventsInTheTicks(command: [String]) throws {
        let ticks = try Self.ticks(command)
        let last = try #require(ticks.last)

        // The UID's transmitter: TLM tied by address, findings against the catalog.
        let uid = try #require(Self.beacon(last, HealthScenario.uidID))
        let health = try #require(uid["health"] as? Object)
        #expect(health["address"] as? String == HealthScenario.uidAddress.description)
        #expect(health["tlm"] as? String == "plain")
        #expect(health["battery"] as? Int == 2840)
        #expect(health["temperature"] as? Double == 19)
        #expect(health["advertisingCount"] as? Int == 5223)
        #expect(health["uptime"] as? Double == 1094.8)
        let age = try #require(health["tlmAge"] as? Double)
        #expect(age >= 0 && age < 6, "a TLM every fifth event: \(age)")
        let interval = try #require(health["advertisingInterval"] as? Double)
        #expect(abs(interval - 1.0275) < 0.01, "1.0225 s plus the 5 ms mean advDelay: \(interval)")
        let kinds = (health["findings"] as? [Object] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds == ["low-battery", "interval"])
        let messages = (health["findings"] as? [Object] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains("battery low: 2.84 V, below 3.00 V"))
        #expect(messages.contains { $0.hasPrefix("advertises every 1.03 s, catalog says 100 ms") }, "\(messages)")

        // Two transmitters of one identity: a duplicate on the beacon and one event with both addresses.
        let cloned = try #require(Self.beacon(last, HealthScenario.duplicateID))
        let clonedHealth = try #require(cloned["health"] as? Object)
        let pairs = try #require(clonedHealth["duplicates"] as? [[Object]])
        #expect(pairs.count == 1)
        #expect(pairs.first?.compactMap { $0["address"] as? String } == HealthScenario.duplicateAddresses.map(\.description))
        let duplicates = Self.events(ticks, type: "duplicate")
        #expect(duplicates.count == 1, "one event per pair")
        #expect(duplicates.first?["id"] as? String == HealthScenario.duplicateID)
        let levels = (duplicates.first?["addresses"] as? [Object] ?? []).compactMap { ($0["rssi"] as? Double).map { Int($0.rounded()) } }
        #expect(levels == [-58, -81])
        let detected = try #require(duplicates.first?["t"] as? Double) - HealthScenario.start
        #expect(detected > 12 && detected < 15, "found once both were heard 3 times each: \(detected)")

        // One transmitter changing its address: an event, merged health, no duplicate.
        let rotations = Self.events(ticks, type: "address-rotated")
        #expect(rotations.count == 1)
        let rotation = try #require(rotations.first)
        #expect(rotation["id"] as? String == HealthScenario.rotatingID)
        #expect(rotation["from"] as? String == HealthScenario.rotatingAddresses[0].description)
        #expect(rotation["to"] as? String == HealthScenario.rotatingAddresses[1].description)
        let rotated = try #require(Self.beacon(last, HealthScenario.rotatingID)?["health"] as? Object)
        #expect((rotated["duplicates"] as? [Any])?.isEmpty == true)
        #expect((rotated["findings"] as? [Any])?.isEmpty == true)
        #expect(rotated["address"] as? String == HealthScenario.rotatingAddresses[1].description)
        let frames = try #require(rotated["frames"] as? Int)
        #expect(frames > 250, "the old address's frames merged into the new one's: \(frames)")
    }

    @Test func withoutTheFlagTheTicksAreUnchanged() throws {
        let ticks = try Self.ticks(["replay", "--json"])
        #expect(!ticks.isEmpty)
        #expect(ticks.allSatisfy { tick in ((tick["beacons"] as? [Object]) ?? []).allSatisfy { $0["health"] == nil } })
        #expect(Self.events(ticks, type: "duplicate").isEmpty)
    }

    @Test func healthNeedsTheTicks() throws {
        let result = try ExternalCommand.run(beacontopExecutable, ["scan", "x.btsnoop", "--frames", "--json", "--health"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--health adds to the ranging ticks"))
    }

    @Test func theMonitorShowsHealthFindingsAndAddressEvents() throws {
        try TestPrerequisites.requireTmux()
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try MonitorTerminalTests.start("monitor health.btsnoop --exhibits health.yaml --speed 8", in: directory.path, columns: 120, lines: 36)
        defer { session.kill() }
        // The finished replay keeps its last state: every finding is in by then.
        try session.waitFor(timeout: 30, "the replay's end") { $0.contains("finished") }
        let table = try session.capture()
        let lines = table.split(separator: "\n").map(String.init)
        let eddystone = try #require(lines.first { $0.contains("Eddystone bench beacon") })
        #expect(eddystone.hasPrefix("!"), "the row with a finding is marked: \(eddystone)")
        let cloned = try #require(lines.first { $0.contains("Cloned thermometer") })
        #expect(cloned.hasPrefix("!"), "a duplicate is marked: \(cloned)")
        let rotating = try #require(lines.first { $0.contains("Rotating phone") })
        #expect(!rotating.hasPrefix("!"), "a rotation is not a warning: \(rotating)")

        try session.send("H")
        // Each view is waited for whole (its last line too), as it is asserted: a capture taken while
        // ncurses is still writing a frame shows the new heading over the old view's lines (seen once
        // in CI under load, the detail pane's findings not yet drawn below its health line).
        let health = try session.waitFor(timeout: 10, "the health view") {
            $0.contains("BATTERY") && $0.contains("advertises every 1.03 s, catalog says 100 ms") && $0.contains("eTLM")
        }
        #expect(health.contains("beacontop · Health bench · health"))
        let row = try #require(health.split(separator: "\n").first { $0.contains("Eddystone bench beacon") })
        for value in ["5A:00:00:00:00:10", "2.84 V", "19.0 C", "5223", "18 m", "1.03 s"] {
            #expect(row.contains(value), "\(value) in: \(row)")
        }
        #expect(health.contains("battery low: 2.84 V, below 3.00 V"))
        #expect(health.contains("advertises every 1.03 s, catalog says 100 ms"))
        #expect(health.contains("duplicate: 5A:00:00:00:00:01 (-58 dBm) and 5A:00:00:00:00:02 (-81 dBm) send"))
        let encrypted = try #require(health.split(separator: "\n").first { $0.contains("5A:00:00:00:00:20") })
        #expect(encrypted.contains("eTLM"), "encrypted TLM shown as such: \(encrypted)")

        try session.send("e")
        let log = try session.waitFor(timeout: 10, "the event log") { $0.contains("KIND") && $0.contains("(one transmitter, merged)") }
        #expect(log.contains("warning  duplicate: 5A:00:00:00:00:01"))
        // Wrapped under WHAT, whole (it was cut at the screen's edge after 'sends 494E5445').
        // WHAT is column 16 (it was 32, which left a 40-column screen 8 columns).
        #expect(log.contains("info     address-rotated: 5A:00:00:00:00:03 -> 5A:00:00:00:00:04 sends\n"
            + String(repeating: " ", count: 16) + "494E5445-4C4C-495F-524F-434B535F4857:20596:25984 (one transmitter, merged)"))

        // The detail pane of the Eddystone beacon: its health line and findings.
        try session.send("Escape")
        try session.send("/", "E", "d", "d", "y", "Enter", "Enter")
        // Waits for the pane's last line: the title line is redrawn first, and captures taken
        // mid-frame showed "· detail" over the event log's lines, once with the health line drawn and
        // the findings below it not yet (both under load).
        let detail = try session.waitFor(timeout: 10, "the detail pane") { $0.contains("· detail") && $0.contains("! battery low") }
        #expect(detail.contains("Health 5A:00:00:00:00:10: battery 2.84 V, 19.0 C, TLM"))
        #expect(detail.contains("! battery low: 2.84 V, below 3.00 V"))
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }

    /// `--export` from the start, `x` to stop it and to start a second export; both files read back.
    @Test func theMonitorExportsEveryReadingAsCSV() throws {
        try TestPrerequisites.requireTmux()
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try MonitorTerminalTests.start(
            "monitor health.btsnoop --exhibits health.yaml --speed 16 --export session.csv", in: directory.path, columns: 120, lines: 30
        )
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the export on the status line") { $0.contains("CSV session.csv") }
        try session.waitFor(timeout: 30, "the replay's end") { $0.contains("finished") }
        try session.send("x")
        try session.waitFor(timeout: 10, "the export closed") { !$0.contains("CSV session.csv") }
        try session.send("x")
        try session.waitFor(timeout: 10, "a second export") { $0.contains("CSV beacontop-") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)

        let table = CSVTable.parse(try String(contentsOf: directory.appendingPathComponent("session.csv"), encoding: .utf8))
        #expect(table.first?.first == "time" && table.first?.count == 18)
        let rows = table.dropFirst()
        // Three ticks a second of wall time while 60 s replay at 16x (3.75 s), four beacons each.
        #expect(rows.count > 30)
        #expect(rows.allSatisfy { $0.count == 18 })
        let names = Set(rows.map { $0[2] })
        #expect(names.isSuperset(of: ["Eddystone bench beacon", "Cloned thermometer", "Rotating phone"]), "\(names)")
        let times = rows.compactMap { Double($0[0]) }
        #expect(times.count == rows.count && times == times.sorted())
        #expect(times.first! >= HealthScenario.start && times.first! < HealthScenario.start + 10)
        let second = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("beacontop-") && $0.hasSuffix(".csv") }
        #expect(second.count == 1)
        let again = CSVTable.parse(try String(contentsOf: directory.appendingPathComponent(second[0]), encoding: .utf8))
        #expect(again.first == table.first)
    }

    /// `x` never writes over a file: with every `beacontop-YYYYMMDD-HHMMSS.csv` of the next minute
    /// already there (another session's exports; a second `x` within the second named its own
    /// first export again), the export goes to `-2` and the files keep their bytes. They were
    /// replaced: `x`, `x`, `x` within a second truncated the first export's rows.
    @Test func anExportNeverWritesOverAFile() throws {
        try TestPrerequisites.requireTmux()
        let directory = try HealthScenario.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let now = Date()
        let taken = (0..<60).map { "beacontop-\(formatter.string(from: now.addingTimeInterval(Double($0)))).csv" }
        let theirs = Data("another session's export\r\n".utf8)
        for name in taken { try theirs.write(to: directory.appendingPathComponent(name)) }
        let session = try MonitorTerminalTests.start("monitor health.btsnoop --exhibits health.yaml --speed 16", in: directory.path, columns: 120, lines: 30)
        defer { session.kill() }
        try session.waitFor(timeout: 20, "the first beacon") { $0.contains("Eddystone bench beacon") }
        try session.send("x")
        let exporting = try session.waitFor(timeout: 10, "the export") { $0.contains("CSV beacontop-") }
        try session.send("x")
        try session.waitFor(timeout: 10, "the export closed") { !$0.contains("CSV beacontop-") }
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
        #expect(exporting.range(of: #"CSV beacontop-[0-9]{8}-[0-9]{6}-2\.csv"#, options: .regularExpression) != nil)
        for name in taken {
            #expect(try Data(contentsOf: directory.appendingPathComponent(name)) == theirs, "\(name) was written over")
        }
        let ours = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix("-2.csv") }
        #expect(ours.count == 1)
        let table = try ours.first.map { CSVTable.parse(try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
        #expect(table?.first?.first == "time")
    }
}
