import Foundation
import Glibc
import TestFixtures
import Testing

/// Catalog names in scripts whose width a grapheme count gets wrong, in a real terminal (tmux):
/// every row keeps its columns and the panel rule holds nothing but the nearest exhibit's name.
/// Before the screen laid text out by code point, the Hindi, Tamil and Bengali rows and the emoji
/// ones ran off the right edge (their age lost) and pieces of a name stayed in the rule.
@Suite(.serialized)
struct ScriptNamesTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static let uuid = "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35"
    /// Each name starts with an ASCII word that finds its row.
    static let names = ["Hindi हिन्दी संग्रहालय", "Tamil தமிழ் அருங்காட்சியகம்", "Bengali বাংলা জাদুঘর", "Skin 👍🏽 tone 👋🏿", "Lab 👩‍🔬 team 👨‍👩‍👧"]

    @Test func rowsInAnyScriptKeepTheirColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-scripts-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 30 s of five beacons at 10 packets/s each, the first the strongest (nearest, immediate).
        let lines = (0..<1500).map { index -> String in
            let beacon = index % 5
            return "{\"t\": \(Double(index / 5) * 0.1), \"address\": \"C0:00:00:00:00:0\(beacon + 1)\", \"rssi\": \(-50 - 5 * beacon), \"ibeacon\": \"\(Self.uuid):1:\(beacon + 1)\"}"
        }
        try lines.joined(separator: "\n").write(to: directory.appendingPathComponent("walk.ndjson"), atomically: true, encoding: .utf8)
        let catalog = ["exhibits:"] + Self.names.enumerated().map { "  - id: \"\(Self.uuid):1:\($0.offset + 1)\"\n    name: \"\($0.element)\"" }
        try catalog.joined(separator: "\n").write(to: directory.appendingPathComponent("names.yaml"), atomically: true, encoding: .utf8)

        let session = try MonitorTerminalTests.start("monitor walk.ndjson --exhibits names.yaml --loop", in: directory.path, columns: 100, lines: 20)
        defer { session.kill() }
        // Every row drawn whole ends with its age ("0.1s") at the right edge; a row measured short
        // of what the terminal draws loses it past the edge, so this state is never reached then.
        let screen = try session.waitFor(timeout: 20, "every row ending with its age, the panel's rule drawn") { screen in
            let rows = screen.split(separator: "\n").filter { row in Self.names.contains { row.dropFirst().hasPrefix($0.prefix(4)) } }
            return rows.count == Self.names.count && rows.allSatisfy { $0.hasSuffix("s") && $0.contains(" -") }
                && screen.split(separator: "\n").contains { $0.hasPrefix("── Hindi") && $0.hasSuffix("──") }
        }
        let rule = try #require(screen.split(separator: "\n").first { $0.hasPrefix("── Hindi") })
        #expect(rule.hasSuffix("──") && rule.contains("संग्रहालय · "), "the rule holds the name and the proximity only: \(rule)")
        #expect(screen.contains("Lab 👩🔬 team 👨👩👧") && screen.contains("Skin 👍 tone 👋"), "\(screen)")
        try session.send("q")
        try MonitorTerminalTests.expectRestored(session)
    }
}
