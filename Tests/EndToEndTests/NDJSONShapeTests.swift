import Foundation
import TestFixtures
import Testing

/// The NDJSON lines a script reads, from the built binary on the real recordings: every object of
/// a kind has the same keys, as docs/formats.md lists them, with `null` for an unknown value rather
/// than a missing key (a strict decoder, Codable or a Go struct, refuses a line without one).
@Suite struct NDJSONShapeTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("venue lines of a recording: every beacon has id, room, scanner, rssi, distance and runnerUp, null when unknown")
    func venueLineBeaconsHaveEveryKey() throws {
        let recording = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path
        let run = try HostileInputCommandTests.run(["replay", recording, "--json"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Self.objects(run.stdout)
        #expect(lines.count > 50)
        var beacons = lines.flatMap { ($0["beacons"] as? [[String: Any]]) ?? [] }
        // A reading from a scanner that said offline, after the view's last tick: the last line
        // holds its beacon with no live reading, so with no scanner, rssi or distance.
        let fading = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-shape-\(getpid()).venue.ndjson")
        defer { try? FileManager.default.removeItem(at: fading) }
        func line(_ t: Double, _ topic: String, _ payload: String) -> String {
            let escaped = payload.replacingOccurrences(of: "\"", with: "\\\"")
            return #"{"t":\#(t),"topic":"\#(topic)","payload":"\#(escaped)"}"# + "\n"
        }
        func reading(_ minor: Int) -> String { #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-\#(minor)","rssi":-60,"distance":1.2}"# }
        var text = #"{"beacontopVenueRecording":1,"prefix":""}"# + "\n" + line(1795411724, "espresense/rooms/lab/status", "offline")
        for second in 0..<10 { text += line(1795411724 + Double(second), "espresense/devices/x/hall", reading(2)) }
        text += line(1795411733.5, "espresense/devices/x/lab", reading(1))
        try text.write(to: fading, atomically: true, encoding: .utf8)
        let faded = try HostileInputCommandTests.run(["replay", fading.path, "--json"], timeout: 60)
        #expect(faded.status == 0, "\(faded.stderr)")
        let last = try #require(try Self.objects(faded.stdout).last?["beacons"] as? [[String: Any]])
        #expect(last.contains { $0["scanner"] is NSNull }, "\(last)")
        beacons += last
        for beacon in beacons {
            #expect(Set(beacon.keys) == ["id", "room", "scanner", "rssi", "distance", "runnerUp"], "\(beacon)")
        }
        for line in lines {
            #expect(Set(line.keys) == ["t", "beacons", "events"], "\(line.keys)")
        }
    }

    @Test("tick lines of the museum walk with its catalog: the documented keys, frameMeasuredPower and exhibit only where they apply")
    func tickLineBeaconsHaveTheDocumentedKeys() throws {
        let root = SharedData.repositoryRoot
        let run = try HostileInputCommandTests.run(
            ["replay", root.appendingPathComponent("demo/museum-walk.btsnoop").path, "--json",
             "--exhibits", root.appendingPathComponent("demo/museum.yaml").path], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Self.objects(run.stdout)
        #expect(lines.count > 200)
        let always: Set<String> = [
            "id", "kind", "address", "rssi", "filteredRssi", "accuracy", "accuracyRange", "rangeProbability", "proximity",
            "measuredPower", "measuredPowerSource", "pathLossExponent", "packets", "packetsPerSecond", "interval", "lastSeen", "stale",
        ]
        for line in lines {
            #expect(Set(line.keys) == ["t", "beacons", "nearest", "events"], "\(line.keys)")
            for beacon in (line["beacons"] as? [[String: Any]]) ?? [] {
                #expect(Set(beacon.keys).subtracting(["frameMeasuredPower", "exhibit"]) == always, "\(beacon)")
            }
        }
    }
}
