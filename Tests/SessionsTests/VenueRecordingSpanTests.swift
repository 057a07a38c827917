import Foundation
import PacketSources
@testable import Sessions
import TestFixtures
import Testing

/// `VenueRecordingReader.span(path:)`: the length the monitor shows for a venue recording, from its
/// first message and the last whole line of its tail, without reading what lies between.
@Suite struct VenueRecordingSpanTests {
    @Test("the span of a recording is its last message's time less its first's")
    func spanOfARecording() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 90)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(VenueRecordingReader.span(path: path) == 89)
    }

    @Test("a torn last line (a recording cut mid-write) is left out, as the replay leaves it out")
    func aTornLastLineIsLeftOut() throws {
        let path = try VenueReplayEngineTests.recording(seconds: 30, extra: #"{"t":1795411900.5,"topic":"espresense/dev"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(VenueRecordingReader.span(path: path) == 29)
    }

    @Test("a recording longer than the tail window: its last line still read from the tail")
    func aLongRecording() throws {
        // About 200 bytes a line: 3,000 lines pass the 256 KiB window.
        let path = try VenueReplayEngineTests.recording(seconds: 3_000, interval: 0.5)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) > VenueRecordingReader.spanTail)
        #expect(VenueRecordingReader.span(path: path) == 1_499.5)
    }

    @Test("the golden recordings: the span reaches the last line that reads as a message")
    func goldenRecordings() throws {
        for name in ["mixed.venue.ndjson", "prefixed.venue.ndjson"] {
            let path = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/\(name)").path
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            // Every line that is a message (a time, a topic and a payload), in order; the file's own
            // torn last line has no closing newline.
            let times = lines.dropLast().compactMap { line -> Double? in
                guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      object["topic"] is String, object["payload"] is String || object["payloadHex"] is String else { return nil }
                return (object["t"] as? NSNumber)?.doubleValue
            }
            let span = try #require(VenueRecordingReader.span(path: path), "\(name)")
            #expect(abs(span - (times.last! - times.first!)) < 1e-6, "\(name): \(span)")
        }
    }

    @Test("a recording whose clock steps back 50 s: the span counts the step as the replay does, as zero")
    func aStepBackCountsAsZero() throws {
        // 0..89 s, then set back 50 s: 40..99 s. The replay plays 0..89 s, then 89..148 s.
        let path = try VenueReplayClockStepTests.recording(before: 90, back: 50, after: 60)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(VenueRecordingReader.span(path: path) == 148)
        var replayed: [Double] = []
        _ = try VenueReplay.run(path: path, catalog: nil, warn: { _ in }) { lines in
            for line in lines.bytes.split(separator: UInt8(ascii: "\n")) {
                if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let t = (object["t"] as? NSNumber)?.doubleValue {
                    replayed.append(t)
                }
            }
            lines.removeAll()
        }
        #expect(replayed.last.map { $0 - VenueReplayClockStepTests.start } == 148, "the replay's last line, where the span ends")
    }

    @Test("no span for a header alone or a file that is no recording")
    func noSpan() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-venue-span-\(getpid()).venue.ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"beacontopVenueRecording":1,"prefix":""}"#.utf8 + [0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(VenueRecordingReader.span(path: path) == nil)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(VenueRecordingReader.span(path: path) == nil)
    }
}
