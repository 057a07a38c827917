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
        let beacons = lines.flatMap { ($0["beacons"] as? [[String: Any]]) ?? [] }
        // The view's last line holds a beacon no scanner has a live reading of: it lost rssi and distance.
        #expect(beacons.contains { $0["scanner"] is NSNull }, "the recording no longer has a beacon without a reading")
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
