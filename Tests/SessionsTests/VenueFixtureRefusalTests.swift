import Foundation
import Sessions
import TestFixtures
import Testing
import Venue

/// The venue recordings (`scripts/venue-fixture.py`) write every message as the real writer writes
/// it (ESPresense's firmware, beacontop's agent) except in one labelled block of deliberate bad
/// messages, 40.3 to 40.5 s in: so the counts of refused messages in their golden outputs and on the
/// monitor's status line are those bad messages, and a refusal anywhere else is a fixture that
/// writes what no scanner writes (agents once sent phones and an Eddystone as "ibeacon", ESPresense
/// nodes a distance without an "rssi").
@Suite("Venue fixtures: only the deliberate bad messages are refused")
struct VenueFixtureRefusalTests {
    static let badBlock = 40.25..<40.5 // its messages are 40.3 to 40.45 s in (an epoch time less the start is a few ns off)

    @Test(arguments: ["mixed.venue.ndjson", "prefixed.venue.ndjson"])
    func onlyTheBadBlockIsRefused(name: String) throws {
        let path = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/\(name)").path
        var reader = try VenueRecordingReader(path: path)
        var decoder = VenueMessageDecoder(topics: VenueTopics(prefix: reader.prefix))
        var start: Double?
        var outside: [String] = []
        var inside = 0
        var messages = 0
        // The recording ends in a bad line and a torn one (the reader's own errors): read up to there.
        while let message = try? reader.next() {
            messages += 1
            let first = start ?? message.receivedAt
            start = first
            let before = decoder.refusedTotal
            _ = decoder.decode(topic: message.topic, payload: message.payload, receivedAt: message.receivedAt, retained: message.retained)
            guard decoder.refusedTotal > before else { continue }
            let second = message.receivedAt - first
            if Self.badBlock.contains(second) {
                inside += 1
            } else {
                outside.append("\(second) s \(message.topic): \(String(decoding: message.payload.prefix(120), as: UTF8.self))")
            }
        }
        #expect(messages > 1_000)
        #expect(outside.isEmpty, "\(outside.count) refused outside the bad block, first: \(outside.prefix(3))")
        #expect(inside >= 20, "the bad block's messages are refused")
    }
}
